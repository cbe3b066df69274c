// No hot loop: a waiter whose wake-up never comes re-checks on a randomised backoff, a handful of
// times per second, and its delays spread out instead of all being equal (or zero).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setTimeout as sleep } from "node:timers/promises";
import type { Redis } from "ioredis";
import type { LockManager } from "../src/index.ts";
import { backoff } from "../src/core/manager.ts";
import { deafSubscriber, fastClient, layeredManager, ready } from "./support.ts";
import { useOwnRedis } from "./use-shared-redis.ts";

describe("backoff", () => {
  it("gives delays between the base and the cap that are neither zero nor all equal", () => {
    const next = backoff({ baseMs: 20, maxMs: 500 });
    const delays = Array.from({ length: 200 }, next);
    for (const delay of delays) {
      expect(delay).toBeGreaterThanOrEqual(20);
      expect(delay).toBeLessThanOrEqual(500);
    }
    expect(new Set(delays.map(Math.round)).size).toBeGreaterThan(50);
    const mean = delays.reduce((sum, d) => sum + d, 0) / delays.length;
    expect(mean).toBeGreaterThan(100); // grows from the base towards the cap
  });
});

describe("a contended wait whose wake-up message is lost", () => {
  const server = useOwnRedis(); // a server of its own: its command statistics are this test's alone
  let admin: Redis;
  const clients: Redis[] = [];
  const managers: LockManager[] = [];
  beforeAll(async () => {
    admin = fastClient(server.url);
    await ready(admin);
  });
  afterAll(async () => {
    for (const manager of managers) await manager.close();
    for (const client of [admin, ...clients]) client.disconnect();
  });

  async function manager(subscriber?: ReturnType<typeof deafSubscriber>): Promise<LockManager> {
    const redis = fastClient(server.url);
    clients.push(redis);
    await ready(redis);
    const locks = layeredManager(redis, "backoff", { subscriber });
    managers.push(locks);
    return locks;
  }

  /** Scripts Redis ran since the last CONFIG RESETSTAT. */
  async function scriptCalls(): Promise<number> {
    const stats = await admin.info("commandstats");
    let calls = 0;
    for (const match of stats.matchAll(/^cmdstat_(?:evalsha|eval):calls=(\d+)/gm))
      calls += Number(match[1]);
    return calls;
  }

  it("asks Redis a handful of times per second, and still takes the lock after the release", async () => {
    const holder = await manager();
    const waiter = await manager(deafSubscriber()); // every hand-off message is lost
    const resource = { kind: "order", id: "no-wake-up" };
    const held = await holder.acquire(resource, { ttlMs: 10_000, waitMs: 0 });
    expect(held.ok).toBe(true);
    if (!held.ok) return;
    await admin.config("RESETSTAT");
    const started = performance.now();
    const waiting = waiter.acquire(resource, { waitMs: 3000 });
    await sleep(1000);
    const releasedAt = performance.now();
    await held.lease.release(); // hands the lock to the waiter; its message never arrives
    const result = await waiting;
    const tookMs = performance.now() - releasedAt;
    const calls = (await scriptCalls()) - 1; // less the holder's release
    expect(result.ok).toBe(true);
    if (result.ok) await result.lease.release();
    // Decorrelated jitter from 20 ms towards 500 ms: about 10 re-checks in the 1.5 s or so; a
    // backoff of zero makes it hundreds.
    expect(calls).toBeLessThanOrEqual(25);
    expect(calls).toBeGreaterThanOrEqual(2);
    expect(tookMs).toBeLessThan(1200); // found by a re-check (the backoff caps at 500 ms), long before the wait ends
    expect(performance.now() - started).toBeLessThan(3000);
  });
});
