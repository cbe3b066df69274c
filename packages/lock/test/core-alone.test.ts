// The core alone, no layer plugged in: it holds a lock, releases it, renews it under withLock,
// and a contended wait retries on a randomised backoff (a handful of tries a second, not a hot
// loop) until the holder releases, or until its signal aborts. Without the outage layer,
// withLock rejects while Redis is down.
import { afterAll, expect, it } from "vitest";
import { createLockManager, type LockManager } from "../src/index.ts";
import { counting, fastClient, HASH_KEY, KINDS, ready, sleep } from "./support.ts";
import { useSharedRedis } from "./use-shared-redis.ts";

const fx = useSharedRedis();
const managers: LockManager[] = [];
const clients: ReturnType<typeof fastClient>[] = [];

async function coreAlone() {
  const redis = fastClient(fx.test.url);
  clients.push(redis);
  await ready(redis);
  const counted = counting(redis);
  const locks = createLockManager({
    redis: counted.client,
    namespace: fx.test.namespace,
    hashKey: HASH_KEY,
    kinds: KINDS,
  });
  managers.push(locks);
  return { locks, calls: counted.calls };
}

afterAll(async () => {
  for (const locks of managers) await locks.close();
  for (const client of clients) client.disconnect();
});

it("holds a lock, releases it, and withLock renews it past its TTL", async () => {
  const { locks } = await coreAlone();
  const result = await locks.acquire({ kind: "order", id: "core-1" }, { waitMs: 0 });
  expect(result.ok).toBe(true);
  if (!result.ok) return;
  expect(await fx.test.redis.get(result.lease.key)).toBe(result.lease.token);
  expect(await result.lease.release()).toBe("released");
  expect(await fx.test.redis.exists(result.lease.key)).toBe(0);

  const outcome = await locks.withLock(
    { kind: "order", id: "core-2" },
    async ({ lease, signal }) => {
      await sleep(700); // more than twice the TTL: only renewals keep it
      return {
        held: (await fx.test.redis.get(lease!.key)) === lease!.token,
        aborted: signal.aborted,
      };
    },
    { ttlMs: 300 },
  );
  expect(outcome).toMatchObject({ status: "ok", value: { held: true, aborted: false } });
  expect(locks.stats()).toMatchObject({ waiters: 0, timers: 0, leases: 0, subscriptions: 0 });
});

it("waits by retrying after a randomised backoff, and takes the lock once it is released", async () => {
  const { locks: holder } = await coreAlone();
  const { locks: waiter, calls } = await coreAlone();
  const resource = { kind: "order", id: "core-3" };
  const held = await holder.acquire(resource, { ttlMs: 10_000, waitMs: 0 });
  if (!held.ok) throw new Error("must acquire");
  calls.length = 0;
  const waiting = waiter.acquire(resource, { waitMs: 3000 });
  await sleep(1000);
  const triesWhileHeld = calls.length;
  await held.lease.release();
  const result = await waiting;
  expect(result.ok).toBe(true);
  if (result.ok) await result.lease.release();
  // Decorrelated jitter from 20 ms towards 500 ms: about 6 tries in the first second, but a run of
  // short delays is not rare: 16 or more tries come once in 75 runs, 30 or more less than once in
  // a million (a million simulated seconds). A constant 20 ms backoff makes about 48, none
  // hundreds: the bound tells a backoff from a loop, not one draw of the jitter from another.
  expect(triesWhileHeld).toBeGreaterThanOrEqual(2);
  expect(triesWhileHeld).toBeLessThanOrEqual(30);
  expect(waiter.stats()).toMatchObject({ waiters: 0, timers: 0, leases: 0 });
});

it("ends a retrying wait at once when its signal aborts, leaving nothing behind", async () => {
  const { locks: holder } = await coreAlone();
  const { locks: waiter } = await coreAlone();
  const resource = { kind: "order", id: "core-4" };
  const held = await holder.acquire(resource, { ttlMs: 10_000, waitMs: 0 });
  if (!held.ok) throw new Error("must acquire");
  const controller = new AbortController();
  const waiting = waiter.acquire(resource, { waitMs: 5000, signal: controller.signal });
  const settled = waiting.then(
    () => "acquired",
    (error: Error) => `rejected: ${error.message}`,
  );
  await sleep(100);
  // Aborted in a backoff sleep, not while a try is on its way to Redis (that one ends at its reply).
  while (waiter.stats().waiters === 0) await sleep(5);
  controller.abort(new Error("caller gave up"));
  // At once: before the event loop turns once more, so not at the backoff timer's next tick.
  // Event-loop order, not a clock: it holds however loaded the machine is.
  const aTurnLater = new Promise((resolve) => setImmediate(() => resolve("not yet")));
  expect(await Promise.race([settled, aTurnLater])).toBe("rejected: caller gave up");
  expect(waiter.stats()).toMatchObject({ waiters: 0, timers: 0, leases: 0 });
  await held.lease.release();
});

it("without the outage layer, withLock rejects with LockUnavailableError while Redis is down, running nothing", async () => {
  const down = fastClient("redis://127.0.0.1:1", { lazyConnect: true });
  clients.push(down);
  const locks = createLockManager({
    redis: down,
    namespace: "core-down",
    hashKey: HASH_KEY,
    kinds: KINDS,
  });
  managers.push(locks);
  let ran = false;
  for (const kind of ["order", "update", "job"])
    // refuse, proceed-db-only, skip: none applies
    await expect(
      locks.withLock({ kind, id: 1 }, async () => (ran = true), { requestId: "t" }),
    ).rejects.toMatchObject({ name: "LockUnavailableError", reason: "connection", kind });
  expect(ran).toBe(false);
  expect(locks.stats()).toMatchObject({ leases: 0, timers: 0, commandsInFlight: 0 });
});
