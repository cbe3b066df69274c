// Hand-offs: a release sets the lock to the first waiter's token and tells its manager. A lost
// message is made up for by the waiter's re-check, and under concurrency no wake-up is lost and
// exclusion stays exact.
import { describe, expect, it } from "vitest";
import { setTimeout as sleep } from "node:timers/promises";
import { inboxPrefix, lineKeys, releaseScript } from "../src/layers/fair-waiting.ts";
import { deafSubscriber } from "./support.ts";
import { useSharedRedis } from "./use-shared-redis.ts";

const fx = useSharedRedis();
const { hold, lineOf } = fx;

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
  it("a waiter that finds a handed lock late confirms it for its full TTL, and withLock keeps it", async () => {
    const holder = await hold("lost-message-late");
    const locks = await fx.make({ subscriber: deafSubscriber() });
    const outcome = locks.withLock(
      { kind: "order", id: "lost-message-late" },
      async ({ lease, signal }) => {
        expect(lease!.expiresAt - Date.now()).toBeGreaterThan(1500); // the confirming ask renewed it
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
    const keys = lineKeys(holder.key);
    await fx.test.redis
      .multi()
      .eval(
        releaseScript.source,
        4,
        ...keys,
        holder.token,
        inboxPrefix(fx.test.namespace),
        3_600_000,
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
