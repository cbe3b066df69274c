// Two shops' bots on one Redis, each with the namespace it gets by default (`<env>:bot<id>`, from
// its token). Nothing crosses between them: not a lock key (each holds "order 42" at once), not a
// release channel (one bot's release never wakes the other's waiter), not a fence counter (one
// bot's acquisitions never move the other's fences). The bot ids are chosen so that one namespace
// is a prefix of the other: the key layout must not rely on them differing early.
import { randomInt } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCK_KINDS } from "@orderbot/core";
import { createLockManager, fairWaiting, type LockManager } from "@orderbot/lock";
import { createRedis, lockNamespaceFor, waitForRedis, type Redis } from "@orderbot/platform";
import { createTestRedis, type TestRedis } from "@orderbot/testkit";

const id = randomInt(10_000, 99_999);
const NAMESPACE_A = lockNamespaceFor("test", `${id}:AAtoken-of-shop-a-0123456789`);
const NAMESPACE_B = lockNamespaceFor("test", `${id}1:AAtoken-of-shop-b-0123456789`);

let t: TestRedis;
const clients: Redis[] = [];
const managers: LockManager[] = [];

async function bot(namespace: string, hashKey: string): Promise<LockManager> {
  const redis = createRedis({ url: t.url, commandTimeoutMs: 1_000 });
  await waitForRedis(redis);
  clients.push(redis);
  const layers = { waiting: fairWaiting() }; // its release channels are what must not cross
  const locks = createLockManager({ redis, namespace, kinds: LOCK_KINDS, hashKey, layers });
  managers.push(locks);
  return locks;
}

async function keysUnder(prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for (const pattern of [`${prefix}*`, `{${prefix}*`]) {
    let cursor = "0";
    do {
      const [next, batch] = await t.redis.scan(cursor, "MATCH", pattern, "COUNT", 500);
      cursor = next;
      keys.push(...batch);
    } while (cursor !== "0");
  }
  return keys;
}

beforeAll(async () => {
  t = await createTestRedis();
});
afterAll(async () => {
  for (const locks of managers) await locks.close();
  for (const redis of clients) redis.disconnect();
  for (const namespace of [NAMESPACE_A, NAMESPACE_B]) {
    const keys = await keysUnder(`${namespace}:`);
    if (keys.length > 0) await t.redis.del(...keys);
  }
  await t?.cleanup();
});

describe("two bots on one Redis", () => {
  it("names each bot in its namespace, one a prefix of the other", () => {
    expect(NAMESPACE_A).toBe(`test:bot${id}`);
    expect(NAMESPACE_B.startsWith(NAMESPACE_A)).toBe(true);
  });

  it("shares no lock key, release channel or fence counter", async () => {
    const a = await bot(NAMESPACE_A, "shop-a-hash-key-0123456789");
    const aWaiter = await bot(NAMESPACE_A, "shop-a-hash-key-0123456789");
    const b = await bot(NAMESPACE_B, "shop-b-hash-key-0123456789");
    const order = { kind: "order", id: "42" };

    // Keys: both hold "order 42" at once, each under its own namespace.
    const heldA = await a.acquire(order, { waitMs: 0 });
    const heldB = await b.acquire(order, { waitMs: 0 });
    if (!heldA.ok || !heldB.ok) throw new Error("each bot's order 42 should be free");
    expect(heldA.lease.key).not.toBe(heldB.lease.key);
    expect(heldA.lease.key.startsWith(`{${NAMESPACE_A}:lock:`)).toBe(true);
    expect(heldB.lease.key.startsWith(`{${NAMESPACE_B}:lock:`)).toBe(true);

    // Channels: A's second instance waits for A's order 42. B releasing its own order 42 (and
    // taking and releasing it again) must not wake it: only A's release does.
    const waiting = aWaiter.acquire(order, { waitMs: 2_000 });
    let woke = 0;
    void waiting.then(() => (woke = Date.now()));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const channels = (await t.redis.pubsub("CHANNELS", `${NAMESPACE_A}:*`)) as string[];
    expect(channels.length).toBeGreaterThan(0);
    expect(channels.every((c) => c.startsWith(`${NAMESPACE_A}:lock:`))).toBe(true);

    const fenceA = await t.redis.get(`${heldA.lease.key}:fence`);
    await heldB.lease.release();
    const bFences: number[] = [];
    for (let i = 0; i < 5; i++) {
      const again = await b.acquire(order, { waitMs: 0 });
      if (!again.ok) throw new Error("B's order 42 should be free again");
      bFences.push(again.lease.fence);
      await again.lease.release();
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(woke).toBe(0); // B's releases went to B's channel
    // Fences: B's acquisitions moved B's counter only.
    expect(await t.redis.get(`${heldA.lease.key}:fence`)).toBe(fenceA);
    expect(bFences.every((fence, i) => i === 0 || fence > bFences[i - 1]!)).toBe(true);

    const releasedAt = Date.now();
    await heldA.lease.release();
    const next = await waiting;
    if (!next.ok) throw new Error("A's waiter should get A's lock once A releases it");
    expect(woke - releasedAt).toBeLessThan(500); // woken by A's release, not by a re-check
    expect(next.lease.fence).toBeGreaterThan(heldA.lease.fence);
    await next.lease.release();

    // Every key either bot wrote is under its own namespace (A's scan excludes B's keys by the
    // ":" after the namespace).
    const keysA = await keysUnder(`${NAMESPACE_A}:`);
    const keysB = await keysUnder(`${NAMESPACE_B}:`);
    expect(keysA.filter((k) => keysB.includes(k))).toEqual([]);
    expect(keysB.length).toBeGreaterThan(0);
  });
});
