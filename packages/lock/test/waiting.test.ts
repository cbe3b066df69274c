// Waiting for a held lock: woken by the release (one subscriber connection per manager), served
// in arrival order, re-checked no later than the holder's TTL, and ended at once by a signal.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setTimeout as sleep } from "node:timers/promises";
import { Registry } from "prom-client";
import {
  createLockManager,
  LOCK_METRICS,
  LockUnavailableError,
  type Lease,
  type LockManager,
} from "../src/index.ts";
import { inboxPrefix, siblingKeys } from "../src/keys.ts";
import { acquireScript, releaseScript, tryScript } from "../src/scripts.ts";
import {
  abortListeners,
  counting,
  fastClient,
  HASH_KEY,
  KINDS,
  ready,
  recordingLogger,
  deafSubscriber,
  recordingScripts,
  sharedRedis,
  slowManager,
  wrappedManager,
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

/**
 * Runs `test` with a manager whose client records which script each EVALSHA runs, by name;
 * `sent()` returns the scripts sent since its last call.
 */
async function withScriptsRecorded(
  test: (manager: { locks: LockManager; sent: () => string[] }) => Promise<void>,
): Promise<void> {
  const names = new Map(
    [tryScript, acquireScript, releaseScript].map((script) => [script.sha, script.name]),
  );
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

  it("joins the line at once for a key its last wait found taken, and tries plainly again once it is free at the first ask", () =>
    withScriptsRecorded(async ({ locks, sent }) => {
      const holder = await hold("contended");
      const busy = await locks.acquire({ kind: "order", id: "contended" }, { waitMs: 50 });
      expect(busy.ok).toBe(false);
      // the try, then the wait's attempts (the first one subscribes, then asks once more)
      expect(sent().slice(0, 2)).toEqual(["try", "acquire"]);
      await holder.release();

      const next = await locks.acquire({ kind: "order", id: "contended" }, { waitMs: 5000 });
      if (!next.ok) throw new Error("must acquire");
      expect(sent()).toEqual(["acquire"]); // no try: straight into line, and the lock was free
      await next.lease.release();
      sent();

      const again = await locks.acquire({ kind: "order", id: "contended" }, { waitMs: 5000 });
      if (!again.ok) throw new Error("must acquire");
      expect(sent()).toEqual(["try"]); // free at the first ask: no longer taken for contended
      await again.lease.release();
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
    expect(await lineOf(holder.key)).toBe(1); // one place in line per process, not per waiter
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
    await fx.test.redis.zadd(`${holder.key}:queue`, 0, "gone-manager"); // first in line, then its process died
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
    await fx.test.redis.zadd(`${holder.key}:queue`, 0, "dead-manager");
    await fx.test.redis.hset(
      `${holder.key}:tickets`,
      "dead-manager",
      `dead-token 300 ${Number(seconds) * 1000 + 60_000}`,
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

  it("a hand-off to a waiter that aborted meanwhile passes on to the next manager in line", async () => {
    const holder = await hold("abort-handoff");
    const first = await fx.make();
    const second = await fx.make();
    const controller = new AbortController();
    // A long TTL: had the lock stayed with the aborted waiter, the second would time out first.
    const aborted = first.acquire(
      { kind: "order", id: "abort-handoff" },
      { waitMs: 10_000, ttlMs: 60_000, signal: controller.signal },
    );
    while ((await lineOf(holder.key)) < 1) await sleep(2);
    const waiting = second.acquire({ kind: "order", id: "abort-handoff" }, { waitMs: 5000 });
    while ((await lineOf(holder.key)) < 2) await sleep(2);
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
    const holder = await hold("late-message");
    const first = await fx.make();
    const second = await fx.make();
    const controller = new AbortController();
    const aborted = first.acquire(
      { kind: "order", id: "late-message" },
      { waitMs: 10_000, ttlMs: 60_000, signal: controller.signal },
    );
    while ((await lineOf(holder.key)) < 1) await sleep(2);
    const waiting = second.acquire({ kind: "order", id: "late-message" }, { waitMs: 5000 });
    while ((await lineOf(holder.key)) < 2) await sleep(2);
    // Put the first manager back in line with its waiter's ticket after it left, as if its
    // leaving had raced the release: the lock goes to a token nobody waits for.
    const manager = (await fx.test.redis.zrange(`${holder.key}:queue`, 0, 0))[0]!;
    const ticket = await fx.test.redis.hget(`${holder.key}:tickets`, manager);
    expect(ticket).toMatch(/ 60000 /); // the first waiter's ticket: its token and its 60 s TTL
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ name: "AbortError" });
    while ((await lineOf(holder.key)) > 1) await sleep(2); // it stepped out of line
    await fx.test.redis.zadd(`${holder.key}:queue`, 0, manager);
    await fx.test.redis.hset(`${holder.key}:tickets`, manager, ticket!);
    await holder.release();
    const result = await waiting; // the first manager heard the hand-off, found no waiter and passed it on
    expect(result.ok).toBe(true);
    if (result.ok) await result.lease.release();
    expect(first.stats()).toMatchObject({ waiters: 0, leases: 0 });
  });
});

describe("a lost hand-off message", () => {
  it("the waiter's re-check finds the lock already set to its token and takes it with the hand-off's fence", async () => {
    const holder = await hold("lost-message");
    const locks = await fx.make({ subscriber: deafSubscriber() }); // every hand-off message is lost
    const waiting = locks.acquire({ kind: "order", id: "lost-message" }, { waitMs: 5000 });
    while ((await lineOf(holder.key)) < 1) await sleep(2);
    await holder.release();
    const handedTo = await fx.test.redis.get(holder.key);
    const handedFence = Number(await fx.test.redis.get(`${holder.key}:fence`));
    const result = await waiting;
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.lease.token).toBe(handedTo);
    expect(result.lease.fence).toBe(handedFence);
    expect(result.lease.expiresAt).toBeLessThanOrEqual(Date.now() + 2000); // never past the real expiry
    expect(await result.lease.release()).toBe("released");
  });
});

describe("a lost hand-off message, found late", () => {
  it("withLock renews a handed lock that has little of its TTL left before it runs out", async () => {
    const holder = await hold("lost-message-late");
    const locks = await fx.make({ subscriber: deafSubscriber() });
    const outcome = locks.withLock(
      { kind: "order", id: "lost-message-late" },
      async ({ lease, signal }) => {
        expect(lease!.expiresAt - Date.now()).toBeLessThan(1000); // found with most of its 2 s TTL gone
        await sleep(1200); // past that: only an early renewal keeps it
        return {
          aborted: signal.aborted,
          held: (await fx.test.redis.get(lease!.key)) === lease!.token,
        };
      },
      { waitMs: 5000 },
    );
    while ((await lineOf(holder.key)) < 1) await sleep(2);
    // The holder's release, as its manager sends it, hands the lock to the waiter (the message is
    // lost); in the same transaction the lock is left 600 ms, as if the re-check came 1.4 s later.
    const keys = siblingKeys(holder.key);
    await fx.test.redis
      .multi()
      .eval(
        releaseScript.source,
        4,
        keys.lock,
        keys.fence,
        keys.queue,
        keys.tickets,
        holder.token,
        inboxPrefix(fx.test.namespace),
        3_600_000,
        "",
      )
      .pexpire(holder.key, 600)
      .exec();
    expect(await outcome).toMatchObject({ status: "ok", value: { aborted: false, held: true } });
  });
});

describe("hand-off under concurrency", () => {
  it("no wake-up is lost and exclusion stays exact: 8 managers x 3 callers, 240 hand-offs on one key", async () => {
    const managers = await Promise.all(Array.from({ length: 8 }, () => fx.make()));
    let inside = 0;
    let overlaps = 0;
    let done = 0;
    const fences: number[] = [];
    await Promise.all(
      managers.flatMap((locks) =>
        Array.from({ length: 3 }, async () => {
          for (let i = 0; i < 10; i++) {
            const result = await locks.acquire(
              { kind: "order", id: "stampede" },
              { waitMs: 20_000 },
            );
            expect(result.ok).toBe(true);
            if (!result.ok) return;
            inside += 1;
            if (inside > 1) overlaps += 1;
            fences.push(result.lease.fence);
            await sleep(0);
            inside -= 1;
            done += 1;
            expect(await result.lease.release()).toBe("released");
          }
        }),
      ),
    );
    expect(done).toBe(240);
    expect(overlaps).toBe(0);
    for (let i = 1; i < fences.length; i++) expect(fences[i]).toBeGreaterThan(fences[i - 1]!);
    for (const locks of managers)
      expect(locks.stats()).toMatchObject({ waiters: 0, leases: 0, timers: 0 });
    const key = managers[0]!.keyFor({ kind: "order", id: "stampede" });
    expect(await fx.test.redis.exists(key, `${key}:queue`, `${key}:tickets`)).toBe(0);
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
      // A first wait finds the key taken: it subscribes, and the key counts as contended, so the
      // next wait for it joins the line with its first attempt.
      const warm = await hold("handed-late");
      await locks.acquire({ kind: "order", id: "handed-late" }, { waitMs: 30 });
      expect(locks.stats().subscriptions).toBe(1);
      await warm.release();

      const holder = await hold("handed-late");
      replies.slow = true;
      const waiting = locks.acquire({ kind: "order", id: "handed-late" }, { waitMs: 100 });
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
    const locks = createLockManager({
      redis: client,
      namespace: fx.test.namespace,
      hashKey: HASH_KEY,
      kinds: KINDS,
      registry: new Registry(),
    });
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
