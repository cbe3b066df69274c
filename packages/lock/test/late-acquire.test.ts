// An acquire whose reply comes back after the lease would already abort (Redis paused, a slow
// network): the lock is given back and the caller told Redis was too slow, never handed a lease
// that is already lost, and the manager tracks nothing.
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Redis } from "ioredis";
import { Registry } from "prom-client";
import { createLockManager, LockUnavailableError, type LockManager } from "../src/index.ts";
import { fastClient, HASH_KEY, KINDS, ready, withLayers } from "./support.ts";
import { useOwnRedis } from "./use-shared-redis.ts";

const server = useOwnRedis();
let admin: Redis;
let own: Redis;
let locks: LockManager;

beforeAll(async () => {
  [admin, own] = [fastClient(server.url), fastClient(server.url)];
  await Promise.all([ready(admin), ready(own)]);
  const options = { namespace: "late", hashKey: HASH_KEY, kinds: KINDS, registry: new Registry() };
  locks = createLockManager(withLayers({ ...options, redis: own }));
});
afterAll(async () => {
  await locks.close();
  [admin, own].forEach((client) => client.disconnect());
});

it("never hands out a lease lost before the acquire returned; withLock does not run the task", async () => {
  const resource = { kind: "order", id: "paused" };
  await admin.call("CLIENT", "PAUSE", "200"); // the reply comes ~200 ms late: past abortsAt (130 ms)
  const error = await locks.acquire(resource, { ttlMs: 150, waitMs: 0 }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(LockUnavailableError);
  expect((error as LockUnavailableError).reason).toBe("timeout");
  expect(locks.stats()).toMatchObject({ leases: 0 });

  await admin.call("CLIENT", "PAUSE", "200");
  let ran = false;
  const outcome = await locks.withLock(resource, async () => (ran = true), { ttlMs: 150 });
  expect(outcome).toEqual({ status: "unavailable" }); // the kind refuses when Redis is too slow
  expect(ran).toBe(false);
  expect(locks.stats()).toMatchObject({ leases: 0 });
});
