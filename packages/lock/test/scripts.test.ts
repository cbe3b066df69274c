// The Lua scripts, run directly against Redis: what each returns and what it leaves behind.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { createTestRedis, type TestRedis } from "@orderbot/testkit";
import { acquireScript, extendScript, handoffScript, LuaScript, releaseScript } from "../src/scripts.ts";
import { ownRedis } from "./support.ts";

let t: TestRedis;
let n = 0;
const INBOX = "inbox:";
const keys = () => {
  const lock = `{${t.namespace}:lock:script:${++n}}`;
  return { lock, fence: `${lock}:fence`, queue: `${lock}:queue` };
};
type K = ReturnType<typeof keys>;
const acquire = (k: K, token: string, waiter = "", more = "0", ttl = 1500) =>
  acquireScript.run(
    t.redis,
    [k.lock, k.fence, k.queue],
    [token, ttl, 60_000, waiter, more, 300_000],
  ) as Promise<[number, number]>;
const release = (k: K, token: string) => releaseScript.run(t.redis, [k.lock, k.queue], [token, INBOX, 500]);

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

beforeAll(async () => {
  t = await createTestRedis();
});
afterAll(() => t.cleanup());

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

  it("refuses a held lock, leaves it and its fence untouched, and reports its remaining TTL", async () => {
    const k = keys();
    await acquire(k, "tok-a");
    const fenceBefore = await t.redis.get(k.fence);
    const [status, pttl] = await acquire(k, "tok-b");
    expect(status).toBe(0);
    expect(pttl).toBeGreaterThan(1000);
    expect(await t.redis.get(k.lock)).toBe("tok-a");
    expect(await t.redis.get(k.fence)).toBe(fenceBefore);
    expect(await t.redis.exists(k.queue)).toBe(0); // a caller that tries once is not put in line
  });

  it("puts a waiting manager in line once, keeping its place across retries", async () => {
    const k = keys();
    await acquire(k, "tok-a");
    await acquire(k, "tok-b", "manager-1");
    await acquire(k, "tok-c", "manager-2");
    const [first] = await t.redis.zrange(k.queue, 0, 0);
    await acquire(k, "tok-d", "manager-1"); // retry: NX keeps the original arrival
    expect(await t.redis.zrange(k.queue, 0, -1)).toEqual(["manager-1", "manager-2"]);
    expect(first).toBe("manager-1");
    expect(await t.redis.pttl(k.queue)).toBeGreaterThan(200_000);
  });

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
    expect(fences[1]).toBe(fences[0]! + 1);
  });

  it("gives a lock reserved for a manager to that manager only", async () => {
    const k = keys();
    await t.redis.set(k.lock, "reserved:manager-1", "PX", 500);
    expect((await acquire(k, "tok-x"))[0]).toBe(0);
    expect((await acquire(k, "tok-y", "manager-2"))[0]).toBe(0);
    const [status] = await acquire(k, "tok-z", "manager-1");
    expect(status).toBe(1);
    expect(await t.redis.get(k.lock)).toBe("tok-z");
    expect(await t.redis.pttl(k.lock)).toBeGreaterThan(1000);
  });

  it("takes the acquiring manager out of line, or puts it at the back when more of its callers wait", async () => {
    const k = keys();
    await acquire(k, "tok-a");
    await acquire(k, "tok-b", "m1");
    await acquire(k, "tok-c", "m2");
    await release(k, "tok-a"); // reserved for m1, which leaves the line
    expect(await t.redis.zrange(k.queue, 0, -1)).toEqual(["m2"]);
    expect((await acquire(k, "tok-d", "m1", "1"))[0]).toBe(1); // m1 got it and still has callers waiting
    expect(await t.redis.zrange(k.queue, 0, -1)).toEqual(["m2", "m1"]);
    await release(k, "tok-d"); // reserved for m2
    expect((await acquire(k, "tok-e", "m2", "0"))[0]).toBe(1);
    expect(await t.redis.zrange(k.queue, 0, -1)).toEqual(["m1"]);
    await t.redis.del(k.lock);
    expect((await acquire(k, "tok-f", "m1", "0"))[0]).toBe(1); // a free lock: taken, and m1 leaves the line
    expect(await t.redis.exists(k.queue)).toBe(0);
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

  it("hands the lock to the first manager in line: reserves it and tells that manager only", async () => {
    const k = keys();
    const inbox = await listen(`${INBOX}m1`, `${INBOX}m2`);
    try {
      await acquire(k, "ours");
      await acquire(k, "w1", "m1");
      await acquire(k, "w2", "m2");
      expect(await release(k, "ours")).toBe(1);
      expect(await t.redis.get(k.lock)).toBe("reserved:m1");
      const pttl = await t.redis.pttl(k.lock);
      expect(pttl).toBeGreaterThan(0);
      expect(pttl).toBeLessThanOrEqual(500);
      expect(await t.redis.zrange(k.queue, 0, -1)).toEqual(["m2"]);
      expect(await inbox.settle()).toEqual([[`${INBOX}m1`, k.lock]]);
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

describe("handoff.lua", () => {
  const handoff = (k: K, manager: string) =>
    handoffScript.run(t.redis, [k.lock, k.queue], [manager, INBOX, 500]);

  it("passes a lock reserved for a manager that no longer wants it to the next in line", async () => {
    const k = keys();
    const inbox = await listen(`${INBOX}m2`);
    try {
      await t.redis.set(k.lock, "reserved:m1", "PX", 500);
      await t.redis.zadd(k.queue, 2, "m2", 3, "m3");
      expect(await handoff(k, "m1")).toBe(1);
      expect(await t.redis.get(k.lock)).toBe("reserved:m2");
      expect(await inbox.settle()).toEqual([[`${INBOX}m2`, k.lock]]);
    } finally {
      inbox.close();
    }
  });

  it("leaves the line without touching a lock someone holds, and frees a reservation nobody else wants", async () => {
    const k = keys();
    await t.redis.set(k.lock, "holder", "PX", 1000);
    await t.redis.zadd(k.queue, 1, "m1", 2, "m2");
    expect(await handoff(k, "m1")).toBe(0);
    expect(await t.redis.get(k.lock)).toBe("holder");
    expect(await t.redis.zrange(k.queue, 0, -1)).toEqual(["m2"]);

    await t.redis.set(k.lock, "reserved:m2", "PX", 500);
    expect(await handoff(k, "m2")).toBe(0);
    expect(await t.redis.exists(k.lock, k.queue)).toBe(0);
  });
});

describe("loading", () => {
  it("calls by SHA, and falls back to EVAL once on a server that does not know the script", async () => {
    const server = await ownRedis();
    const redis = new Redis(server.url);
    try {
      expect(await redis.script("EXISTS", acquireScript.sha)).toEqual([0]);
      const k = { lock: "{x}", fence: "{x}:fence", queue: "{x}:queue" };
      await acquireScript.run(redis, [k.lock, k.fence, k.queue], ["tok", 1000, 60_000, "", "0", 1000]);
      expect(await redis.script("EXISTS", acquireScript.sha)).toEqual([1]);
      await redis.script("FLUSH"); // as after a restart or a failover
      expect(await releaseScript.run(redis, [k.lock, k.queue], ["tok", INBOX, 500])).toBe(1);
    } finally {
      redis.disconnect();
      await server.dispose();
    }
  });

  it("passes Redis errors other than NOSCRIPT through", async () => {
    const broken = new LuaScript("broken", "return redis.call('INCR', KEYS[1])");
    const k = keys();
    await t.redis.set(k.lock, "not a number");
    await expect(broken.run(t.redis, [k.lock], [])).rejects.toThrow(/not an integer/);
  });
});
