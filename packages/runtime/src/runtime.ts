// The composition root: one call builds a process's connections and the shop over them, the same
// way in the bot's and the worker's mains (apps/worker/src/runtime.ts), the test harnesses of both,
// the e2e suite's in-process worker and the webhook benchmark. Every setting comes from the process's validated config, parsed
// once: the connections from platform's shared settings, the shop's rules from core's.
import { createShop, LOCK_KINDS, shopConfigOf, type Shop, type ShopSettings } from "@orderbot/core";
import { createDatabase, type Database } from "@orderbot/db";
import {
  connectRedis,
  type ConnectRedisOptions,
  type Logger,
  type RedisConnections,
  type RedisConnectionsConfig,
  type Registry,
} from "@orderbot/platform";
import { withSessionSettings } from "./db-url.ts";

/** What it reads: the bot's and the worker's configs both have it. */
export interface RuntimeConfig extends RedisConnectionsConfig, ShopSettings {
  DATABASE_URL: string;
  DATABASE_POOL_MAX: number;
  DATABASE_CONNECT_TIMEOUT_MS: number;
}

export interface RuntimeOptions {
  /** The process, for connection names and logs: "bot", "worker:2". */
  name: string;
  logger: Logger;
  registry: Registry;
  /** The id core's log lines carry: the update or the job run being served. */
  requestId?: () => string | undefined;
  /** PostgreSQL settings for every session (libpq `options`), e.g. idle_in_transaction_session_timeout. */
  sessionSettings?: Record<string, string | number>;
  /** Other lock kinds than the shop's (a test's shorter leases), and another breaker. */
  locks?: Pick<ConnectRedisOptions, "kinds" | "breaker">;
}

export interface Runtime extends Pick<RedisConnections, "redis" | "locks"> {
  db: Database;
  shop: Shop;
  /** Closes the lock manager and Redis first, then the database pool. */
  close(): Promise<void>;
}

/**
 * @example
 * const runtime = createRuntime(config, { name: "bot", logger, registry });
 * const { db, redis, locks, shop } = runtime;
 * const app = createBotApp({ config, logger, registry, db, redis, locks, shop });
 * // on shutdown: await app.close(); await runtime.close();
 */
export function createRuntime(config: RuntimeConfig, options: RuntimeOptions): Runtime {
  const { logger, registry } = options;
  const db = createDatabase({
    url: withSessionSettings(config.DATABASE_URL, options.sessionSettings ?? {}),
    poolMax: config.DATABASE_POOL_MAX,
    connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
  });
  const connections = connectRedis(config, {
    name: options.name,
    logger,
    registry,
    kinds: LOCK_KINDS,
    ...options.locks,
  });
  const shop = createShop({
    db,
    locks: connections.locks,
    logger,
    registry,
    ...(options.requestId ? { requestId: options.requestId } : {}),
    config: shopConfigOf(config),
  });
  return {
    db,
    redis: connections.redis,
    locks: connections.locks,
    shop,
    async close() {
      await connections.close();
      await db.$disconnect();
    },
  };
}
