import { Redis, type RedisOptions } from "ioredis";

export { Redis } from "ioredis";

export interface RedisConfig {
  url: string;
  /** Upper bound for any one command; a hung Redis must not hang a request. */
  commandTimeoutMs?: number;
  connectTimeoutMs?: number;
  /** Name shown in CLIENT LIST, handy when several processes share one Redis. */
  connectionName?: string;
}

/**
 * A Redis client that fails fast when Redis is unreachable instead of queueing commands: callers
 * (the lock manager first of all) decide what an outage means for them. It keeps reconnecting in
 * the background with capped backoff, so recovery needs no restart.
 */
export function createRedis(config: RedisConfig, extra: RedisOptions = {}): Redis {
  return new Redis(config.url, {
    lazyConnect: false,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: config.commandTimeoutMs ?? 1000,
    connectTimeout: config.connectTimeoutMs ?? 2000,
    connectionName: config.connectionName,
    retryStrategy: (attempt) => Math.min(50 * 2 ** Math.min(attempt, 6), 2000),
    ...extra,
  });
}

/** Resolves once the client is ready, or rejects after `timeoutMs`. */
export async function waitForRedis(redis: Redis, timeoutMs = 5000): Promise<void> {
  if (redis.status === "ready") return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`Redis not ready after ${timeoutMs} ms`));
    }, timeoutMs);
    const onReady = () => {
      cleanup();
      resolve();
    };
    const cleanup = () => {
      clearTimeout(timer);
      redis.off("ready", onReady);
    };
    redis.on("ready", onReady);
  });
}
