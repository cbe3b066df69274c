// Giving up a wait: waitMs 0, a wait that runs out, a signal, closing the manager. Each ends at
// once and leaves no waiter, timer, listener or place in line behind, and a lock that comes late
// is given back.
import { describe, expect, it } from "vitest";
import { setTimeout as sleep } from "node:timers/promises";
import { Registry } from "prom-client";
import { LOCK_METRICS, LockUnavailableError } from "../src/index.ts";
import {
  abortListeners,
  counting,
  fastClient,
  layeredManager,
  ready,
  recordingLogger,
  slowManager,
} from "./support.ts";
import { useSharedRedis } from "./use-shared-redis.ts";

const fx = useSharedRedis();
const { hold, lineOf } = fx;

describe("giving up", () => {
  it("with waitMs 0, a held lock answers busy after one round trip", async () => {
    const holder = await hold("busy-once");
    const redis = fastClient(fx.test.url);
    await ready(redis);
    const { client, calls } = counting(redis);
    const locks = layeredManager(client, fx.test.namespace);
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

  it("a wait aborted while its first attempt is on its way gives back the lock that attempt took, quietly", async () => {
    const logger = recordingLogger();
    const registry = new Registry();
    const locks = await fx.make({ logger, registry });
    const key = locks.keyFor({ kind: "order", id: "abort-in-flight" });
    const controller = new AbortController();
    const waiting = locks.acquire(
      { kind: "order", id: "abort-in-flight" },
      { waitMs: 5_000, signal: controller.signal },
    );
    controller.abort(); // the acquire script is already sent, and the lock is free: it will take it
    await expect(waiting).rejects.toMatchObject({ name: "AbortError" });
    while (locks.stats().commandsInFlight > 0 || (await fx.test.redis.exists(key)) === 1)
      await sleep(2);
    await sleep(20); // the late reply has been handled
    expect(locks.stats()).toMatchObject({ leases: 0, waiters: 0 });
    // Given back once, not "released" twice: no lease was anybody's, so nothing was "not ours".
    const notOwner = (await registry.getSingleMetric(LOCK_METRICS.releaseNotOwnerTotal)!.get())
      .values;
    expect(notOwner.find((v) => v.labels.kind === "order")?.value).toBe(0);
    expect(logger.lines.filter((line) => line.level === "warn")).toEqual([]);
  });

  it("a lock handed over while the last attempt's reply was on its way is taken, though the wait ran out", async () => {
    const { locks, replies, close } = await slowManager(fx, 150); // Redis runs each script at once; its reply comes 150 ms later
    try {
      // The plain try's "busy" comes back at 150 ms; the wait's first ask, sent then, puts it in
      // line at once, and its "busy" comes back at 300 ms, past the 200 ms wait.
      const holder = await hold("handed-late");
      replies.slow = true;
      const waiting = locks.acquire({ kind: "order", id: "handed-late" }, { waitMs: 200 });
      while ((await lineOf(holder.key)) < 1) await sleep(2); // its attempt ran and put it in line
      await holder.release(); // hands the lock over while that attempt's "busy" is still on its way
      const result = await waiting;
      expect(result.ok).toBe(true);
      if (result.ok) {
        expect(result.lease.fence).toBeGreaterThan(holder.fence);
        expect(await result.lease.release()).toBe("released");
      }
    } finally {
      await close();
    }
  });

  it("a signal aborted before the call sends nothing", async () => {
    const redis = fastClient(fx.test.url);
    await ready(redis);
    const { client, calls } = counting(redis);
    const locks = layeredManager(client, fx.test.namespace);
    const reason = new Error("shutting down");
    await expect(
      locks.acquire(
        { kind: "order", id: "x" },
        { waitMs: 1000, signal: AbortSignal.abort(reason) },
      ),
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

  it("closing the manager ends its waits with LockUnavailableError and takes it out of line", async () => {
    const holder = await hold("closing");
    const locks = await fx.make();
    const waiting = [1, 2].map(() =>
      locks.acquire({ kind: "order", id: "closing" }, { waitMs: 10_000 }),
    );
    while ((await lineOf(holder.key)) < 1 || locks.stats().subscriptions === 0) await sleep(2);
    const rejected = waiting.map((wait) =>
      expect(wait).rejects.toBeInstanceOf(LockUnavailableError),
    );
    await locks.close();
    await Promise.all(rejected);
    expect(locks.stats()).toMatchObject({ waiters: 0, timers: 0, subscriptions: 0 });
    while ((await lineOf(holder.key)) > 0) await sleep(2); // it stepped out of line
    await holder.release();
    expect(await fx.test.redis.exists(holder.key)).toBe(0); // nothing was handed to a closed manager
  });

  it("closing while a wait's first attempt is on its way opens no subscriber afterwards", async () => {
    const holder = await hold("closing-early");
    const locks = await fx.make();
    // No signal: the attempt already sent cannot be interrupted, and comes back busy after close.
    const waiting = locks.acquire({ kind: "order", id: "closing-early" }, { waitMs: 10_000 });
    const rejected = expect(waiting).rejects.toBeInstanceOf(LockUnavailableError);
    await locks.close();
    await rejected;
    expect(locks.stats()).toMatchObject({ waiters: 0, timers: 0, subscriptions: 0 });
    while ((await lineOf(holder.key)) > 0) await sleep(2);
    await holder.release();
    expect(await fx.test.redis.exists(holder.key)).toBe(0);
  });
});
