// The Lua scripts, run directly against Redis: what each returns and what it leaves behind.
import { describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { extendScript, LuaScript } from "../src/core/scripts.ts";
import { acquireScript, releaseScript } from "../src/layers/fair-waiting.ts";
import { ownRedis } from "./support.ts";
import { INBOX, useLockScripts } from "./script-keys.ts";

const { t, keys, acquire, release, tryTake } = useLockScripts({ claimMs: 500 });

/** Collects what is published on the given channels. */
async function listen(...channels: string[]) {
  const listener = t.redis.duplicate();
  const heard: [string, string][] = [];
  listener.on("message", (channel: string, message: string) => heard.push([channel, message]));
  await listener.subscribe(...channels);
  return {
    heard,
    async settle() {
      await t.redis.ping();
      await new Promise((resolve) => setTimeout(resolve, 30));
      return heard;
    },
    close: () => listener.disconnect(),
  };
}

describe("acquire.lua", () => {
  it("sets the token with a millisecond expiry and returns a fence seeded from the server clock", async () => {
    const k = keys();
    const [status, fence] = await acquire(k, "tok-a");
    expect(status).toBe(1);
    const [seconds] = await t.redis.time();
    expect(fence).toBeGreaterThan((Number(seconds) - 5) * 1e6);
    expect(Number.isSafeInteger(fence)).toBe(true);
    expect(await t.redis.get(k.lock)).toBe("tok-a");
    const pttl = await t.redis.pttl(k.lock);
    expect(pttl).toBeGreaterThan(1000);
    expect(pttl).toBeLessThanOrEqual(1500);
    expect(await t.redis.get(k.fence)).toBe(String(fence));
    expect(await t.redis.pttl(k.fence)).toBeGreaterThan(50_000);
  });

  it("refuses a held lock, leaves it and its fence untouched, reports its TTL and puts the caller in line", async () => {
    const k = keys();
    await acquire(k, "tok-a");
    const fenceBefore = await t.redis.get(k.fence);
    const [status, pttl] = await acquire(k, "tok-b");
    expect(status).toBe(0);
    expect(pttl).toBeGreaterThan(1000);
    expect(await t.redis.get(k.lock)).toBe("tok-a");
    expect(await t.redis.get(k.fence)).toBe(fenceBefore);
    expect(await t.redis.zrange(k.queue, 0, -1)).toEqual(["tok-b"]);
  });

  it("puts each waiter in line once, by arrival, keeping its place across re-checks", async () => {
    const k = keys();
    await acquire(k, "tok-a");
    await acquire(k, "tok-b", "manager-1");
    await acquire(k, "tok-c", "manager-2");
    await acquire(k, "tok-d", "manager-1");
    await acquire(k, "tok-b", "manager-1"); // re-check: NX keeps the original arrival
    expect(await t.redis.zrange(k.queue, 0, -1)).toEqual(["tok-b", "tok-c", "tok-d"]);
    expect(await t.redis.pttl(k.queue)).toBeGreaterThan(200_000);
  });

  it("keeps each waiter's ticket (manager, TTL, deadline in server time, claim), renewed by its re-checks", async () => {
    const k = keys();
    await acquire(k, "tok-a");
    const [status, pttl, serverMs] = await acquire(k, "tok-w", "m1", 4000, 2500);
    expect([status, pttl > 0]).toEqual([0, true]);
    const [seconds] = await t.redis.time();
    expect(Math.abs(serverMs! - Number(seconds) * 1000)).toBeLessThan(5000);
    expect(await t.redis.hget(k.tickets, "tok-w")).toBe(`m1 2500 ${serverMs! + 4000} 500`);
    const [, , later] = await acquire(k, "tok-w", "m1", 9000, 2500);
    expect(await t.redis.hget(k.tickets, "tok-w")).toBe(`m1 2500 ${later! + 9000} 500`);
    expect(await t.redis.pttl(k.tickets)).toBeGreaterThan(200_000);
  });

  it("confirms a claim handed to the caller's token: acquired, with that hand-off's fence, extended to its TTL", async () => {
    const k = keys();
    await acquire(k, "holder");
    await acquire(k, "tok-w", "m1", 10_000, 5000);
    await release(k, "holder"); // handed to tok-w, for its 500 ms claim
    expect(await t.redis.pttl(k.lock)).toBeLessThanOrEqual(500);
    const fence = Number(await t.redis.get(k.fence));
    const [status, got] = await acquire(k, "tok-w", "m1", 10_000, 5000);
    expect(status).toBe(1);
    expect(got).toBe(fence);
    expect(await t.redis.pttl(k.lock)).toBeGreaterThan(4000);
    expect(await t.redis.get(k.fence)).toBe(String(fence)); // no second fence for one acquisition
  });

  it("hands a free lock (its holder died) to the oldest live waiter ahead of the caller, and puts the caller in line", async () => {
    const k = keys();
    const inbox = await listen(`${INBOX}m1`, `${INBOX}m2`);
    try {
      await acquire(k, "died");
      await acquire(k, "first", "m1");
      await acquire(k, "second", "m2");
      await t.redis.del(k.lock); // as if "died" had expired
      const [status] = await acquire(k, "second", "m2"); // its re-check comes first
      expect(status).toBe(0);
      expect(await t.redis.get(k.lock)).toBe("first");
      expect(await t.redis.zrange(k.queue, 0, -1)).toEqual(["second"]);
      const heard = await inbox.settle();
      expect(heard.map(([channel]) => channel)).toEqual([`${INBOX}m1`]);
    } finally {
      inbox.close();
    }
  });

  it("takes a waiter that acquires a free lock out of line, ticket and all", async () => {
    const k = keys();
    await acquire(k, "tok-a");
    await acquire(k, "tok-b", "m1");
    await t.redis.del(k.lock); // as if tok-a had expired
    expect((await acquire(k, "tok-b", "m1"))[0]).toBe(1);
    expect(await t.redis.exists(k.queue, k.tickets)).toBe(0);
  });
});

describe("try.lua", () => {
  it("takes a free lock with a millisecond expiry and a fence, and queues nobody", async () => {
    const k = keys();
    const [status, fence] = await tryTake(k, "tok-a");
    expect(status).toBe(1);
    expect(await t.redis.get(k.lock)).toBe("tok-a");
    expect(await t.redis.pttl(k.lock)).toBeGreaterThan(1000);
    expect(await t.redis.get(k.fence)).toBe(String(fence));
    expect(await t.redis.exists(k.queue, k.tickets)).toBe(0);
  });

  it("refuses a held lock, leaves it untouched, reports its remaining TTL and puts nobody in line", async () => {
    const k = keys();
    await tryTake(k, "holder", 5000);
    const fence = await t.redis.get(k.fence);
    const [status, pttl] = await tryTake(k, "other");
    expect(status).toBe(0);
    expect(pttl).toBeGreaterThan(4000);
    expect(pttl).toBeLessThanOrEqual(5000);
    expect(await t.redis.get(k.lock)).toBe("holder");
    expect(await t.redis.get(k.fence)).toBe(fence);
    expect(await t.redis.exists(k.queue, k.tickets)).toBe(0);
  });

  it("gives a token that already holds the lock (a try sent twice) the lock and its fence again", async () => {
    const k = keys();
    const [, fence] = await tryTake(k, "resent", 5000);
    const [status, again] = await tryTake(k, "resent", 5000);
    expect([status, again]).toEqual([1, fence]);
    expect(await t.redis.get(k.fence)).toBe(String(fence)); // no new fence for the same holder
  });
});

describe("release.lua", () => {
  it("deletes only our own lock", async () => {
    const k = keys();
    await acquire(k, "ours");
    expect(await release(k, "theirs")).toBe(0);
    expect(await t.redis.get(k.lock)).toBe("ours");
    expect(await release(k, "ours")).toBe(1);
    expect(await t.redis.exists(k.lock)).toBe(0);
    expect(await release(k, "ours")).toBe(0);
  });

  it("hands the lock to the first waiter in line: its token, its claim, a new fence, and a message to its manager only", async () => {
    const k = keys();
    const inbox = await listen(`${INBOX}m1`, `${INBOX}m2`);
    try {
      const [, fence] = await acquire(k, "ours");
      const [, , serverMs] = await acquire(k, "w1", "m1", 10_000, 3000, 800);
      await acquire(k, "w2", "m2", 10_000, 1500);
      expect(await release(k, "ours")).toBe(1);
      expect(await t.redis.get(k.lock)).toBe("w1");
      const pttl = await t.redis.pttl(k.lock); // its claim, not its TTL, until it confirms
      expect(pttl).toBeGreaterThan(0);
      expect(pttl).toBeLessThanOrEqual(800);
      const newFence = Number(await t.redis.get(k.fence));
      expect(newFence).toBeGreaterThan(fence);
      expect(await t.redis.zrange(k.queue, 0, -1)).toEqual(["w2"]);
      expect(await t.redis.hkeys(k.tickets)).toEqual(["w2"]);
      const heard = await inbox.settle();
      expect(heard).toHaveLength(1);
      const [channel, message] = heard[0]!;
      expect(channel).toBe(`${INBOX}m1`);
      const [token, handedFence, ttl, handedAt, lockKey, retention] = message.split(" ");
      expect([token, Number(handedFence), Number(ttl), lockKey, Number(retention)]).toEqual([
        "w1",
        newFence,
        3000,
        k.lock,
        60_000,
      ]);
      expect(Number(handedAt)).toBeGreaterThanOrEqual(serverMs!);
      // w1 holds it like any holder: its release hands it on to w2
      expect(await release(k, "w1")).toBe(1);
      expect(await t.redis.get(k.lock)).toBe("w2");
    } finally {
      inbox.close();
    }
  });

  it("skips waiters whose deadline passed or whose ticket is gone, and frees the lock when none is left", async () => {
    const k = keys();
    const inbox = await listen(`${INBOX}late`, `${INBOX}ghost`, `${INBOX}live`);
    try {
      await acquire(k, "ours");
      await acquire(k, "t-late", "late", 1); // gives up 1 ms from now
      await t.redis.zadd(k.queue, "NX", 0, "t-ghost"); // a place without a ticket
      await acquire(k, "t-live", "live");
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await release(k, "ours")).toBe(1);
      expect(await t.redis.get(k.lock)).toBe("t-live");
      expect((await inbox.settle()).map(([channel]) => channel)).toEqual([`${INBOX}live`]);
      expect(await t.redis.exists(k.queue, k.tickets)).toBe(0);

      await acquire(k, "t-late2", "late", 1);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await release(k, "t-live")).toBe(1);
      expect(await t.redis.exists(k.lock, k.queue, k.tickets)).toBe(0);
      expect(inbox.heard).toHaveLength(1);
    } finally {
      inbox.close();
    }
  });

  it("lets a waiter that gave up leave the line, passing on a lock handed to it meanwhile", async () => {
    const k = keys();
    const inbox = await listen(`${INBOX}m2`);
    try {
      await acquire(k, "holder");
      await acquire(k, "w1", "m1");
      await acquire(k, "w2", "m2");
      // w1 gives up while the holder still holds: w1 leaves, the holder's lock stays
      expect(await release(k, "w1", "w1")).toBe(0);
      expect(await t.redis.get(k.lock)).toBe("holder");
      expect(await t.redis.zrange(k.queue, 0, -1)).toEqual(["w2"]);
      expect(await t.redis.hkeys(k.tickets)).toEqual(["w2"]);

      await acquire(k, "w3", "m1");
      await release(k, "holder"); // handed to w2
      // w2 had given up meanwhile: leaving passes the lock on to w3
      expect(await release(k, "w2", "w2")).toBe(1);
      expect(await t.redis.get(k.lock)).toBe("w3");
      expect(await t.redis.exists(k.queue, k.tickets)).toBe(0);
      expect((await inbox.settle()).map(([, message]) => message.split(" ")[0])).toEqual(["w2"]);
    } finally {
      inbox.close();
    }
  });
});

describe("extend.lua", () => {
  it("extends only our own lock", async () => {
    const k = keys();
    await t.redis.set(k.lock, "ours", "PX", 1000);
    expect(await extendScript.run(t.redis, [k.lock], ["theirs", 60_000])).toBe(0);
    expect(await t.redis.pttl(k.lock)).toBeLessThanOrEqual(1000);
    expect(await extendScript.run(t.redis, [k.lock], ["ours", 60_000])).toBe(1);
    expect(await t.redis.pttl(k.lock)).toBeGreaterThan(50_000);
    await t.redis.del(k.lock);
    expect(await extendScript.run(t.redis, [k.lock], ["ours", 60_000])).toBe(0);
    expect(await t.redis.exists(k.lock)).toBe(0);
  });
});

describe("loading", () => {
  it("calls by SHA, and falls back to EVAL once on a server that does not know the script", async () => {
    const server = await ownRedis();
    const redis = new Redis(server.url);
    try {
      expect(await redis.script("EXISTS", acquireScript.sha)).toEqual([0]);
      const k = ["{x}", "{x}:fence", "{x}:queue", "{x}:tickets"];
      await acquireScript.run(redis, k, ["tok", 1000, 60_000, "m", 1, 1000]);
      expect(await redis.script("EXISTS", acquireScript.sha)).toEqual([1]);
      await redis.script("FLUSH"); // as after a restart or a failover
      expect(await releaseScript.run(redis, k, ["tok", INBOX, 60_000])).toBe(1);
    } finally {
      redis.disconnect();
      await server.dispose();
    }
  });

  it("passes Redis errors other than NOSCRIPT through", async () => {
    const broken = new LuaScript("return redis.call('INCR', KEYS[1])");
    const k = keys();
    await t.redis.set(k.lock, "not a number");
    await expect(broken.run(t.redis, [k.lock], [])).rejects.toThrow(/not an integer/);
  });
});
