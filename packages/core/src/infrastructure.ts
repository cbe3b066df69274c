import { createDatabase, type Database } from "@orderbot/db";
import {
  createLockManager,
  type LockKindConfig,
  type LockManager,
  type LockRedisClient,
} from "@orderbot/lock";
import {
  Cluster,
  createRedisFromConfig,
  replicationFromConfig,
  watchRedis,
  type Logger,
  type RedisClient,
  type RedisTopologyConfig,
  type Registry,
} from "@orderbot/platform";
import { LOCK_KINDS } from "./lock-kinds.ts";

/** The settings every process shares (platform's sharedConfigShape + redisTopologyShape). */
export interface InfrastructureConfig extends RedisTopologyConfig {
  DATABASE_URL: string;
  DATABASE_POOL_MAX: number;
  DATABASE_CONNECT_TIMEOUT_MS: number;
  REDIS_COMMAND_TIMEOUT_MS: number;
  LOCK_NAMESPACE: string;
  LOCK_HASH_KEY: string;
}

export interface Infrastructure {
  db: Database;
  /** Commands and Lua scripts, on the configured topology (single, Sentinel or Cluster). */
  redis: RedisClient;
  /** The lock manager's subscriber connection (release wake-ups). */
  subscriber: RedisClient;
  locks: LockManager;
  /** Closes the lock manager, both Redis connections and the database pool, in that order. */
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** The process, for connection names and logs: "bot", "worker:2". */
  name: string;
  logger: Logger;
  registry: Registry;
  /** The database URL to use instead of DATABASE_URL (e.g. with session settings added). */
  databaseUrl?: string;
  kinds?: Record<string, LockKindConfig>;
}

/**
 * The connections a process needs, built the same way by the bot and the worker: a PostgreSQL pool
 * of explicit size, two fail-fast Redis connections on the configured topology, and a lock manager
 * over them with the project's lock kinds and, when REDIS_WAIT_REPLICAS is set, strict mode.
 *
 * @example
 * const infra = connectInfrastructure(config, { name: "bot", logger, registry });
 * const shop = createShop({ db: infra.db, locks: infra.locks, logger, registry, config: { ... } });
 * // on shutdown:
 * await infra.close();
 */
export function connectInfrastructure(
  config: InfrastructureConfig,
  options: ConnectOptions,
): Infrastructure {
  const { logger, name } = options;
  const db = createDatabase({
    url: options.databaseUrl ?? config.DATABASE_URL,
    poolMax: config.DATABASE_POOL_MAX,
    connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
  });
  const redis = createRedisFromConfig(config, { connectionName: `orderbot-${name}` });
  const subscriber = createRedisFromConfig(config, { connectionName: `orderbot-${name}-sub` });
  watchRedis(redis, logger, "commands");
  watchRedis(subscriber, logger, "subscriber");
  const replication = replicationFromConfig(config);
  const locks = createLockManager({
    redis: lockClient(redis),
    subscriber,
    namespace: config.LOCK_NAMESPACE,
    kinds: options.kinds ?? LOCK_KINDS,
    hashKey: config.LOCK_HASH_KEY,
    registry: options.registry,
    logger: logger.child({ component: "lock" }),
    commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS,
    ...(replication ? { replication } : {}),
  });
  return {
    db,
    redis,
    subscriber,
    locks,
    async close() {
      await locks.close();
      await Promise.allSettled([redis.quit(), subscriber.quit()]);
      await db.$disconnect();
    },
  };
}

/**
 * The lock manager's view of the client. A Cluster client runs the same scripts, but it has no
 * single-connection `duplicate()`; the subscriber is always passed explicitly above, so the
 * manager never needs one.
 */
function lockClient(redis: RedisClient): LockRedisClient {
  if (!(redis instanceof Cluster)) return redis;
  return {
    evalsha: (sha, numKeys, ...args) => redis.evalsha(sha, numKeys, ...args),
    eval: (script, numKeys, ...args) => redis.eval(script, numKeys, ...args),
    wait: (replicas, timeoutMs) => redis.wait(replicas, timeoutMs),
    duplicate: () => {
      throw new Error("a Redis Cluster client needs an explicit subscriber connection");
    },
    on: (event, listener) => redis.on(event, listener),
    off: (event, listener) => redis.off(event, listener),
  };
}
