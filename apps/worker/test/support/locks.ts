import { afterAll, beforeAll } from "vitest";
import { Redis, waitForRedis } from "@orderbot/platform";
import { LOCK_KINDS } from "@orderbot/core";
import type { LockKindConfig, LockManager } from "@orderbot/lock";
import type { Registry } from "@orderbot/platform";
import {
  createTestRedis,
  shopLockManager,
  WORKER_HASH_KEY,
  type TestRedis,
} from "@orderbot/testkit";

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
  const locks = shopLockManager({
    redis,
    namespace,
    kinds,
    hashKey: HASH_KEY,
    commandTimeoutMs: 500,
    subscriber,
    breaker: { failureThreshold: 3, coolDownMs: 200 },
    registry,
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

/** A lock manager of the file's own (as buildLocks), open from the file's beforeAll to its afterAll. */
export function useWorkerLocks(): { readonly locks: LockManager } {
  let t: TestRedis | undefined;
  let built: Awaited<ReturnType<typeof buildLocks>> | undefined;
  beforeAll(async () => {
    t = await createTestRedis();
    built = await buildLocks(t.url, t.namespace);
  });
  afterAll(async () => {
    await built?.close();
    await t?.cleanup();
  });
  return {
    get locks() {
      if (!built) throw new Error("the locks open in the fixture's beforeAll");
      return built.locks;
    },
  };
}
