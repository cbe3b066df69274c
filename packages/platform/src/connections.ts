// A process's Redis connections and the lock manager over them, built the same way by the bot and
// the worker. It lives here, beside the Redis client factory, rather than in core (the business
// rules open no connections) or in each app (two copies of the Cluster adapter below). The
// database pool is not opened here: @orderbot/db depends on this package, so createRuntime
// (@orderbot/runtime) opens it with createDatabase, and passes core's LOCK_KINDS in as `kinds`.
import {
  circuitBreaker,
  createLockManager,
  fairWaiting,
  lockMetrics,
  outagePolicies,
  strictReplication,
  type BreakerOptions,
  type LockKindConfig,
  type LockManager,
  type LockRedisClient,
} from "@orderbot/lock";
import type { Logger } from "./logger.ts";
import type { Registry } from "./metrics.ts";
import {
  Cluster,
  createRedisFromConfig,
  replicationFromConfig,
  watchRedis,
  type RedisClient,
  type RedisTopologyConfig,
} from "./redis.ts";
import { registerLockKindMetrics } from "./lock-kind-metrics.ts";

/** The settings it reads (platform's sharedConfigShape + redisTopologyShape). */
export interface RedisConnectionsConfig extends RedisTopologyConfig {
  REDIS_COMMAND_TIMEOUT_MS: number;
  LOCK_NAMESPACE: string;
  LOCK_HASH_KEY: string;
}

export interface RedisConnections {
  /** Commands and Lua scripts, on the configured topology (single, Sentinel or Cluster). */
  redis: RedisClient;
  /** The lock manager's subscriber connection (release wake-ups). */
  subscriber: RedisClient;
  locks: LockManager;
  /** Closes the lock manager, then its Redis connections. */
  close(): Promise<void>;
}

export interface ConnectRedisOptions {
  /** The process, for connection names and logs: "bot", "worker:2". */
  name: string;
  logger: Logger;
  registry: Registry;
  /** The lock kinds (core's LOCK_KINDS). */
  kinds: Record<string, LockKindConfig>;
  /** The lock's circuit breaker (default: the lock package's). */
  breaker?: BreakerOptions;
}

/**
 * Fail-fast Redis connections on the configured topology (a third for strict mode), and a lock manager over them with
 * the given lock kinds and, when REDIS_WAIT_REPLICAS is set, strict mode.
 *
 * @example
 * const db = createDatabase({ url: config.DATABASE_URL, poolMax: config.DATABASE_POOL_MAX });
 * const { redis, locks, close } = connectRedis(config, { name: "bot", logger, registry, kinds: LOCK_KINDS });
 * const shop = createShop({ db, locks, logger, registry, config: { ... } });
 * // on shutdown:
 * await close();
 * await db.$disconnect();
 */
export function connectRedis(
  config: RedisConnectionsConfig,
  options: ConnectRedisOptions,
): RedisConnections {
  const { logger, name } = options;
  const redis = createRedisFromConfig(config, { connectionName: `orderbot-${name}` });
  const subscriber = createRedisFromConfig(config, { connectionName: `orderbot-${name}-sub` });
  watchRedis(redis, logger, "commands");
  watchRedis(subscriber, logger, "subscriber");
  const replication = replicationFromConfig(config);
  // Strict mode's WAIT blocks the connection it is sent on: one of its own, never the commands'.
  const waiter =
    replication && createRedisFromConfig(config, { connectionName: `orderbot-${name}-wait` });
  if (waiter) watchRedis(waiter, logger, "replication");
  const locks = createLockManager({
    redis: lockClient(redis),
    namespace: config.LOCK_NAMESPACE,
    kinds: options.kinds,
    hashKey: config.LOCK_HASH_KEY,
    logger: logger.child({ component: "lock" }),
    commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS,
    layers: {
      waiting: fairWaiting({ subscriber }),
      replication: waiter && strictReplication({ ...replication!, connection: waiter }),
      breaker: circuitBreaker(options.breaker),
      outage: outagePolicies(),
      metrics: lockMetrics(options.registry),
    },
  });
  registerLockKindMetrics(options.registry, options.kinds);
  return {
    redis,
    subscriber,
    locks,
    async close() {
      await locks.close();
      await Promise.allSettled([redis.quit(), subscriber.quit(), waiter?.quit()]);
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
    duplicate: () => {
      throw new Error("a Redis Cluster client needs an explicit subscriber connection");
    },
    on: (event, listener) => redis.on(event, listener),
    off: (event, listener) => redis.off(event, listener),
  };
}
