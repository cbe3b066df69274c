// Waiting for a held lock: woken by the release (one subscriber connection per manager), served
// in arrival order, re-checked no later than the holder's TTL, and ended at once by a signal.
import { describe, expect, it } from "vitest";
import { setTimeout as sleep } from "node:timers/promises";
import { type LockManager } from "../src/index.ts";
import { tryScript } from "../src/core/scripts.ts";
import { acquireScript, releaseScript } from "../src/layers/fair-waiting.ts";
import { recordingScripts, wrappedManager } from "./support.ts";
import { useSharedRedis } from "./use-shared-redis.ts";

const fx = useSharedRedis();
const { hold, lineOf } = fx;

/**
 * Runs `test` with a manager whose client records which script each EVALSHA runs, by name;
 * `sent()` returns the scripts sent since its last call.
 */
async function withScriptsRecorded(
  test: (manager: { locks: LockManager; sent: () => string[] }) => Promise<void>,
): Promise<void> {
  const scriptNames = { try: tryScript, acquire: acquireScript, release: releaseScript };
  const names = new Map(Object.entries(scriptNames).map(([name, script]) => [script.sha, name]));
  const scripts: string[] = [];
  const { locks, close } = await wrappedManager(fx, (redis) =>
    recordingScripts(redis, (sha) => scripts.push(names.get(sha) ?? sha)),
  );
  try {
    await test({ locks, sent: () => scripts.splice(0) });
  } finally {
    await close();
  }
}

describe("the first attempt", () => {
  it("takes a free lock with one plain try, even for a caller that may wait: nobody is put in line", () =>
    withScriptsRecorded(async ({ locks, sent }) => {
      const result = await locks.acquire({ kind: "order", id: "free" }, { waitMs: 5000 });
      if (!result.ok) throw new Error("must acquire");
      expect(sent()).toEqual(["try"]);
      expect(await lineOf(result.lease.key)).toBe(0);
      expect(locks.stats()).toMatchObject({ waiters: 0, subscriptions: 0 });
      expect(await result.lease.release()).toBe("released");
      expect(sent()).toEqual(["release"]);
    }));

  it("a caller that may wait tries plainly, then asks once in line, subscribed beforehand; the hand-off needs one confirming ask", () =>
    withScriptsRecorded(async ({ locks, sent }) => {
      const holder = await hold("contended");
      const waiting = locks.acquire({ kind: "order", id: "contended" }, { waitMs: 5000 });
      while ((await lineOf(holder.key)) < 1) await sleep(2);
      expect(locks.stats()).toMatchObject({ waiters: 1, subscriptions: 1 });
      const [first, ...asks] = sent(); // a re-check timer on a slow machine may have asked again
      expect([first, asks[0]]).toEqual(["try", "acquire"]);
      expect(asks.every((name) => name === "acquire")).toBe(true);
      await holder.release();
      const result = await waiting;
      if (!result.ok) throw new Error("must acquire");
      expect(sent()).toEqual(["acquire"]); // handed a claim: one ask confirms it
      await result.lease.release();
      expect(sent()).toEqual(["release"]);
    }));

  it("with waitMs 0, a taken key is tried plainly every time: nothing is remembered and nobody queued", () =>
    withScriptsRecorded(async ({ locks, sent }) => {
      const holder = await hold("busy-once");
      for (let i = 0; i < 2; i++) {
        expect((await locks.acquire({ kind: "order", id: "busy-once" }, { waitMs: 0 })).ok).toBe(
          false,
        );
        expect(sent()).toEqual(["try"]);
      }
      expect(await lineOf(holder.key)).toBe(0);
      await holder.release();
    }));
});

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
      locks.withLock({ kind: "order", id: "local" }, async () => void order.push(i), {
        waitMs: 10_000,
      }),
    );
    await sleep(50);
    expect(locks.stats()).toMatchObject({ waiters: 5, subscriptions: 1 });
    expect(await lineOf(holder.key)).toBe(5); // each waiter has its place, in the order it asked
    await holder.release();
    await Promise.all(waits);
    expect(order).toEqual([0, 1, 2, 3, 4]);
    expect(locks.stats()).toMatchObject({ waiters: 0, timers: 0, leases: 0, subscriptions: 1 });
  });

  it("one subscription per manager serves waiters on many keys", async () => {
    const holders = await Promise.all(["k1", "k2", "k3"].map((id) => hold(id)));
    const locks = await fx.make();
    const waits = ["k1", "k2", "k3"].map((id) =>
      locks.acquire({ kind: "order", id }, { waitMs: 10_000 }),
    );
    await sleep(50);
    expect(locks.stats()).toMatchObject({ waiters: 3, subscriptions: 1 });
    await Promise.all(holders.map((lease) => lease.release()));
    for (const result of await Promise.all(waits)) {
      expect(result.ok).toBe(true);
      if (result.ok) await result.lease.release();
    }
  });

  it("after a holder dies, its waiters in 4 processes still get the lock in the order they arrived", async () => {
    const holder = await hold("died-holding", 300); // never released: it expires
    const order: number[] = [];
    const waits: Promise<unknown>[] = [];
    for (let i = 0; i < 4; i++) {
      const locks = await fx.make();
      const task = async () => void order.push(i);
      waits.push(locks.withLock({ kind: "order", id: "died-holding" }, task, { waitMs: 5000 }));
      while ((await lineOf(holder.key)) < i + 1) await sleep(2);
    }
    await Promise.all(waits);
    expect(order).toEqual([0, 1, 2, 3]);
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

  it("a place in line without a ticket (its manager gone) is skipped: the release hands the lock to the live waiter", async () => {
    const holder = await hold("ghost");
    await fx.test.redis.zadd(`${holder.key}:queue`, 0, "gone-token"); // first in line, then its process died
    const locks = await fx.make();
    const waiting = locks.acquire({ kind: "order", id: "ghost" }, { waitMs: 5000 });
    while ((await lineOf(holder.key)) < 2) await sleep(2);
    await holder.release();
    const result = await waiting;
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(await fx.test.redis.get(holder.key)).toBe(result.lease.token); // handed straight to it
    expect(result.lease.fence).toBeGreaterThan(holder.fence);
    await result.lease.release();
  });

  it("a lock handed to a waiter whose process crashed expires with that waiter's TTL, then goes to the next", async () => {
    const holder = await hold("crashed-waiter");
    const [seconds] = await fx.test.redis.time();
    // A waiter of a process that died after joining the line: a live ticket, nobody to read the message.
    await fx.test.redis.zadd(`${holder.key}:queue`, 0, "dead-token");
    await fx.test.redis.hset(
      `${holder.key}:tickets`,
      "dead-token",
      `dead-manager 300 ${Number(seconds) * 1000 + 60_000}`,
    );
    const locks = await fx.make();
    const waiting = locks.acquire({ kind: "order", id: "crashed-waiter" }, { waitMs: 5000 });
    while ((await lineOf(holder.key)) < 2) await sleep(2);
    await holder.release();
    expect(await fx.test.redis.get(holder.key)).toBe("dead-token");
    const pttl = await fx.test.redis.pttl(holder.key);
    expect(pttl).toBeGreaterThan(0);
    expect(pttl).toBeLessThanOrEqual(300); // the dead waiter's own TTL, like any crashed holder's
    const result = await waiting;
    expect(result.ok).toBe(true);
    if (result.ok) await result.lease.release();
  });

  /**
   * `id` held, then two managers in line for it: the first with a signal to abort it and a long
   * TTL (had the lock stayed with it once aborted, the second would time out first), the second.
   */
  async function twoInLine(id: string) {
    const holder = await hold(id);
    const first = await fx.make();
    const second = await fx.make();
    const controller = new AbortController();
    const aborted = first.acquire(
      { kind: "order", id },
      { waitMs: 10_000, ttlMs: 60_000, signal: controller.signal },
    );
    while ((await lineOf(holder.key)) < 1) await sleep(2);
    const waiting = second.acquire({ kind: "order", id }, { waitMs: 5000 });
    while ((await lineOf(holder.key)) < 2) await sleep(2);
    return { holder, first, controller, aborted, waiting };
  }

  it("a hand-off to a waiter that aborted meanwhile passes on to the next manager in line", async () => {
    const { holder, first, controller, aborted, waiting } = await twoInLine("abort-handoff");
    // Release and abort at once: the release hands the lock to the first waiter, which is gone by
    // the time its manager reads the message (or steps out of line first): either way the second gets it.
    const released = holder.release();
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ name: "AbortError" });
    expect(await released).toBe("released");
    const result = await waiting;
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(await fx.test.redis.get(holder.key)).toBe(result.lease.token);
    await result.lease.release();
    expect(first.stats()).toMatchObject({ waiters: 0, leases: 0, timers: 0 });
    expect(await fx.test.redis.exists(holder.key)).toBe(0);
  });

  it("a hand-off that arrives after its waiter aborted is passed on by the manager", async () => {
    const { holder, first, controller, aborted, waiting } = await twoInLine("late-message");
    // Put the first waiter back in line with its ticket after it left, as if its leaving had
    // raced the release: the lock goes to a token nobody waits for.
    const token = (await fx.test.redis.zrange(`${holder.key}:queue`, 0, 0))[0]!;
    const ticket = await fx.test.redis.hget(`${holder.key}:tickets`, token);
    expect(ticket).toMatch(/ 60000 /); // the first waiter's ticket: its manager and its 60 s TTL
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ name: "AbortError" });
    while ((await lineOf(holder.key)) > 1) await sleep(2); // it stepped out of line
    await fx.test.redis.zadd(`${holder.key}:queue`, 0, token);
    await fx.test.redis.hset(`${holder.key}:tickets`, token, ticket!);
    await holder.release();
    const result = await waiting; // the first manager heard the hand-off, found no waiter and passed it on
    expect(result.ok).toBe(true);
    if (result.ok) await result.lease.release();
    expect(first.stats()).toMatchObject({ waiters: 0, leases: 0 });
  });
});
