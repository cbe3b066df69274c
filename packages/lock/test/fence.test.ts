// Fences, from scripts/fence.lua as the acquire, try and release scripts run it: strictly growing
// per key, floored by the server clock so that a counter that expired or went back (a replica
// promoted before it had the last writes) still yields a larger fence, and kept for the kind's
// retention time after each acquisition.
import { describe, expect, it } from "vitest";
import { tryScript } from "../src/core/scripts.ts";
import { acquireScript } from "../src/layers/fair-waiting.ts";
import { useLockScripts } from "./script-keys.ts";

const { t, keys, acquire, release, tryTake } = useLockScripts();

describe("fences", () => {
  it("hands out strictly increasing fences, also after the counter expired", async () => {
    const k = keys();
    const fences: number[] = [];
    for (let i = 0; i < 5; i++) {
      const [, fence] = await acquire(k, `tok-${i}`);
      fences.push(fence);
      await t.redis.del(k.lock);
      if (i === 2) await t.redis.del(k.fence); // as if the resource had been idle past the retention time
    }
    for (let i = 1; i < fences.length; i++) expect(fences[i]).toBeGreaterThan(fences[i - 1]!);
  });

  it("hands out a larger fence after the counter went back, as on a replica promoted before it had the last writes", async () => {
    const k = keys();
    const [, before] = await acquire(k, "old-primary");
    await t.redis.del(k.lock);
    await t.redis.set(k.fence, "5"); // the promoted replica's counter is far behind
    const [, after] = await acquire(k, "new-primary");
    expect(after).toBeGreaterThan(before);
    expect(Number(await t.redis.get(k.fence))).toBe(after);
  });

  it("floors fences by the server clock in microseconds, and counts on past a floor in the future", async () => {
    const k = keys();
    const [seconds, micros] = await t.redis.time();
    const [, fence] = await acquire(k, "clock");
    expect(fence).toBeGreaterThanOrEqual(Number(seconds) * 1_000_000 + Number(micros));
    await t.redis.del(k.lock);
    const ahead = fence + 10_000_000_000; // a counter ahead of the clock (an old primary's clock ran fast)
    await t.redis.set(k.fence, String(ahead));
    expect((await acquire(k, "next"))[1]).toBe(ahead + 1);
  });

  it("keeps the counter for the retention time after each acquisition, and never shorter than the TTL", async () => {
    const k = keys();
    await acquireScript.run(
      t.redis,
      [k.lock, k.fence, k.queue, k.tickets],
      ["a", 1500, 200, "m", 1, 1000],
    );
    const pttl = await t.redis.pttl(k.fence);
    expect(pttl).toBeGreaterThan(1000); // the TTL (1500 ms), not the 200 ms retention
    expect(pttl).toBeLessThanOrEqual(1500);
    await t.redis.del(k.lock);
    await tryScript.run(t.redis, [k.lock, k.fence], ["b", 100, 50_000]);
    expect(await t.redis.pttl(k.fence)).toBeGreaterThan(40_000); // renewed by the acquisition
  });

  it("shares the fence counter with acquire.lua and release.lua's hand-offs: fences keep growing", async () => {
    const k = keys();
    const [, first] = await tryTake(k, "a");
    await release(k, "a");
    const [, second] = await acquire(k, "b");
    await acquire(k, "c", "manager-c"); // waits in line with a ticket
    await release(k, "b"); // hands the lock to "c", with the next fence
    const handed = Number(await t.redis.get(k.fence));
    await release(k, "c");
    const [, third] = await tryTake(k, "d");
    expect(second).toBeGreaterThan(first);
    expect(handed).toBeGreaterThan(second);
    expect(third).toBeGreaterThan(handed);
  });
  it("seeds a fence counter that expired while the lock was held when it hands the lock over: the fence still grows", async () => {
    const k = keys();
    const [, fence] = await acquire(k, "ours");
    await acquire(k, "w1", "m1");
    await t.redis.del(k.fence); // the counter's retention ran out while the lock was held
    expect(await release(k, "ours")).toBe(1);
    expect(await t.redis.get(k.lock)).toBe("w1");
    const handed = Number(await t.redis.get(k.fence));
    expect(handed).toBeGreaterThan(fence);
    expect(await t.redis.pttl(k.fence)).toBeGreaterThan(50_000); // seeded with the retention time
    // and the next acquisition goes on from there
    expect(await release(k, "w1")).toBe(1);
    const [, next] = await acquire(k, "later");
    expect(next).toBeGreaterThan(handed);
  });
});
