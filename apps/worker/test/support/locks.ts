import { Redis, waitForRedis } from "@orderbot/platform";
import { LOCK_KINDS } from "@orderbot/core";
import {
  circuitBreaker,
  createLockManager,
  fairWaiting,
  lockMetrics,
  outagePolicies,
  type LockKindConfig,
  type LockManager,
} from "@orderbot/lock";
import type { Registry } from "@orderbot/platform";
import { WORKER_HASH_KEY } from "@orderbot/testkit";

/** The hash key of the workers the tests spawn, so in-process managers contend with them. */
export const HASH_KEY = WORKER_HASH_KEY;

/**
 * A lock manager with connections of its own, as a separate worker process would have: two
 * managers built here contend for locks exactly as two processes do.
 */
export async function buildLocks(
  url: string,
  namespace: string,
  registry?: Registry,
  /** Other lock kinds than the shop's (shorter leases, to see a lease end within a test). */
  kinds: Record<string, LockKindConfig> = LOCK_KINDS,
): Promise<{ locks: LockManager; redis: Redis; close(): Promise<void> }> {
  const redis = new Redis(url, {
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => 100,
  });
  const subscriber = new Redis(url, { maxRetriesPerRequest: 0, retryStrategy: () => 100 });
  // Tests stop Redis on purpose; the clients reconnect by themselves.
  for (const client of [redis, subscriber]) client.on("error", () => undefined);
  await Promise.all([waitForRedis(redis), waitForRedis(subscriber)]);
  const locks = createLockManager({
    redis,
    namespace,
    kinds,
    hashKey: HASH_KEY,
    commandTimeoutMs: 500,
    layers: {
      waiting: fairWaiting({ subscriber }),
      breaker: circuitBreaker({ failureThreshold: 3, coolDownMs: 200 }),
      outage: outagePolicies(),
      metrics: registry && lockMetrics(registry),
    },
  });
  return {
    locks,
    redis,
    async close() {
      await locks.close();
      redis.disconnect();
      subscriber.disconnect();
    },
  };
}
