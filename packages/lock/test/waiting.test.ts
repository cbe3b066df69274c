// Waiting for a held lock: woken by the release (one subscriber connection per manager), served
// in arrival order, re-checked no later than the holder's TTL, and ended at once by a signal.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setTimeout as sleep } from "node:timers/promises";
import { Redis } from "ioredis";
import { Registry } from "prom-client";
import { createLockManager, LockUnavailableError, type Lease } from "../src/index.ts";
import {
  abortListeners,
  counting,
  fastClient,
  HASH_KEY,
  KINDS,
  ready,
  sharedRedis,
  type SharedRedisFixture,
} from "./support.ts";

let fx: SharedRedisFixture;
beforeAll(async () => {
  fx = await sharedRedis();
});
afterAll(() => fx.dispose());

const lineOf = (key: string) => fx.test.redis.zcard(`${key}:queue`);

async function hold(id: string, ttlMs = 5000): Promise<Lease> {
  const result = await (await fx.make()).acquire({ kind: "order", id }, { ttlMs, waitMs: 0 });
  if (!result.ok) throw new Error(`could not take ${id}`);
  return result.lease;
}

describe("waiters on one key", () => {
  it("16 waiters in 16 processes all acquire, in the order they arrived", async () => {
    const holder = await hold("hot");
    const order: number[] = [];
    const waits: Promise<void>[] = [];
    for (let i = 0; i < 16; i++) {
      const locks = await fx.make();
      waits.push(
        locks
          .withLock(
            { kind: "order", id: "hot" },
            async () => {
              order.push(i);
              await sleep(2);
            },
            { waitMs: 20_000 },
          )
          .then((outcome) => expect(outcome.status).toBe("ok")),
      );
      while ((await lineOf(holder.key)) < i + 1) await sleep(2); // in line before the next one comes
    }
    await holder.release();
    await Promise.all(waits);
    expect(order).toEqual([...Array(16).keys()]);
  });

  it("waiters of one process are served first come, first served", async () => {
    const holder = await hold("local");
    const locks = await fx.make();
    const order: number[] = [];
    const waits = Array.from({ length: 5 }, (_, i) =>
      locks.withLock({ kind: "order", id: "local" }, async () => void order.push(i), { waitMs: 10_000 }),
    );
    await sleep(50);
    expect(locks.stats()).toMatchObject({ waiters: 5, subscriptions: 1 });
    expect(await lineOf(holder.key)).toBe(1); // one place in line per process, not per waiter
    await holder.release();
    await Promise.all(waits);
    expect(order).toEqual([0, 1, 2, 3, 4]);
    expect(locks.stats()).toMatchObject({ waiters: 0, timers: 0, leases: 0, subscriptions: 1 });
  });

  it("one subscription per manager serves waiters on many keys", async () => {
    const holders = await Promise.all(["k1", "k2", "k3"].map((id) => hold(id)));
    const locks = await fx.make();
    const waits = ["k1", "k2", "k3"].map((id) => locks.acquire({ kind: "order", id }, { waitMs: 10_000 }));
    await sleep(50);
    expect(locks.stats()).toMatchObject({ waiters: 3, subscriptions: 1 });
    await Promise.all(holders.map((lease) => lease.release()));
    for (const result of await Promise.all(waits)) {
      expect(result.ok).toBe(true);
      if (result.ok) await result.lease.release();
    }
  });

  it("re-checks no later than the holder's TTL when the holder vanished without releasing", async () => {
    await hold("crashed", 300); // never released, as if its process died
    const locks = await fx.make();
    const started = Date.now();
    const result = await locks.acquire({ kind: "order", id: "crashed" }, { waitMs: 5000 });
    expect(result.ok).toBe(true);
    expect(Date.now() - started).toBeLessThan(1000); // the TTL (300 ms) plus a re-check, not the wait
    if (result.ok) await result.lease.release();
  });

  it("a lock handed to a manager that is gone is reclaimed after the short reservation", async () => {
    const holder = await hold("ghost");
    await fx.test.redis.zadd(`${holder.key}:queue`, 0, "gone-manager"); // first in line, then its process died
    const locks = await fx.make({ commandTimeoutMs: 200 });
    const waiting = locks.acquire({ kind: "order", id: "ghost" }, { waitMs: 5000 });
    while ((await lineOf(holder.key)) < 2) await sleep(2);
    await holder.release();
    expect(await fx.test.redis.get(holder.key)).toBe("reserved:gone-manager");
    const result = await waiting;
    expect(result.ok).toBe(true);
    if (result.ok) await result.lease.release();
  });
});

describe("giving up", () => {
  it("with waitMs 0, a held lock answers busy after one round trip", async () => {
    const holder = await hold("busy-once");
    const redis = fastClient(fx.test.url);
    await ready(redis);
    const { client, calls } = counting(redis);
    const locks = createLockManager({
      redis: client,
      namespace: fx.test.namespace,
      hashKey: HASH_KEY,
      kinds: KINDS,
      registry: new Registry(),
    });
    const result = await locks.acquire({ kind: "order", id: "busy-once" }, { waitMs: 0 });
    expect(result).toMatchObject({ ok: false, reason: "busy", key: holder.key });
    expect(calls).toEqual(["evalsha"]);
    expect(await lineOf(holder.key)).toBe(0);
    await locks.close();
    redis.disconnect();
  });

  it("an aborted wait rejects at once and leaves no waiter, timer, listener or place in line", async () => {
    const holder = await hold("abort");
    const locks = await fx.make();
    const controller = new AbortController();
    const waiting = locks.acquire(
      { kind: "order", id: "abort" },
      { waitMs: 10_000, signal: controller.signal },
    );
    while ((await lineOf(holder.key)) < 1 || locks.stats().timers === 0) await sleep(2);
    expect(locks.stats()).toMatchObject({ waiters: 1, timers: 1 }); // its re-check timer
    expect(abortListeners(controller.signal)).toBe(1);

    const abortedAt = performance.now();
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: "AbortError" });
    expect(performance.now() - abortedAt).toBeLessThan(200); // the wait had 10 s left
    expect(locks.stats()).toMatchObject({ waiters: 0, timers: 0, leases: 0 });
    expect(abortListeners(controller.signal)).toBe(0);
    while ((await lineOf(holder.key)) > 0) await sleep(2); // it stepped out of line
    await holder.release();
    expect(await fx.test.redis.exists(holder.key)).toBe(0); // nothing was handed to the one who left
  });

  it("a signal aborted before the call sends nothing", async () => {
    const redis = fastClient(fx.test.url);
    await ready(redis);
    const { client, calls } = counting(redis);
    const locks = createLockManager({
      redis: client,
      namespace: fx.test.namespace,
      hashKey: HASH_KEY,
      kinds: KINDS,
      registry: new Registry(),
    });
    const reason = new Error("shutting down");
    await expect(
      locks.acquire({ kind: "order", id: "x" }, { waitMs: 1000, signal: AbortSignal.abort(reason) }),
    ).rejects.toBe(reason);
    expect(calls).toEqual([]);
    await locks.close();
    redis.disconnect();
  });

  it("a wait that runs out answers busy and steps out of line", async () => {
    const holder = await hold("timeout");
    const locks = await fx.make();
    const result = await locks.acquire({ kind: "order", id: "timeout" }, { waitMs: 150 });
    expect(result).toMatchObject({ ok: false, reason: "busy" });
    if (!result.ok) expect(result.waitedMs).toBeGreaterThanOrEqual(145);
    expect(locks.stats()).toMatchObject({ waiters: 0, timers: 0 });
    while ((await lineOf(holder.key)) > 0) await sleep(2);
    await holder.release();
  });

  it("closing the manager ends its waits with LockUnavailableError", async () => {
    await hold("closing");
    const redis = new Redis(fx.test.url);
    const locks = createLockManager({
      redis,
      namespace: fx.test.namespace,
      hashKey: HASH_KEY,
      kinds: KINDS,
      registry: new Registry(),
    });
    const waiting = locks.acquire({ kind: "order", id: "closing" }, { waitMs: 10_000 });
    await sleep(50);
    const rejected = expect(waiting).rejects.toBeInstanceOf(LockUnavailableError);
    await locks.close();
    await rejected;
    expect(locks.stats()).toMatchObject({ waiters: 0, timers: 0, subscriptions: 0 });
    redis.disconnect();
  });
});
