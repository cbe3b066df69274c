// A full Redis (maxmemory reached, policy noeviction) answers "OOM command not allowed" to any
// command that would add data. For the lock that is Redis being unavailable: acquire rejects with
// LockUnavailableError (reason "oom") and withLock applies the kind's outage policy, instead of
// rethrowing a reply error that fails every caller.
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Redis } from "ioredis";
import { setTimeout as sleep } from "node:timers/promises";
import { LockUnavailableError, type LockManager } from "../src/index.ts";
import { tryScript } from "../src/core/scripts.ts";
import { fastClient, layeredManager, ready } from "./support.ts";
import { useOwnRedis } from "./use-shared-redis.ts";

const server = useOwnRedis(["--maxmemory-policy", "noeviction"]);
let redis: Redis;
let locks: LockManager;

beforeAll(async () => {
  redis = fastClient(server.url);
  await ready(redis);
  locks = layeredManager(redis, "oom", {
    breaker: { failureThreshold: 100, coolDownMs: 1000 }, // every call below reaches Redis
  });
});
afterAll(async () => {
  await locks.close();
  redis.disconnect();
});

/**
 * Holds "order:held" on `manager` with 300 ms leases while `during` runs, then half a second more,
 * in which the watchdog renews every 100 ms; the outcome says whether the lease survived.
 */
async function holdWhile(manager: LockManager, during: () => Promise<void>) {
  let key = "";
  const outcome = await manager.withLock(
    { kind: "order", id: "held" },
    async ({ lease, signal }) => {
      key = lease!.key;
      await during();
      await sleep(500);
      return { aborted: signal.aborted, held: lease!.held };
    },
    { ttlMs: 300 },
  );
  return { outcome, key };
}

it("treats a full Redis as unavailable: each kind's outage policy applies, and a held lock can still be released", async () => {
  const held = await locks.acquire({ kind: "order", id: "held-before" });
  expect(held.ok).toBe(true);
  // Fill it: 4 MB of data, then a 1 MB limit.
  await redis.eval(
    "for i = 1, 20000 do redis.call('SET', 'fill:' .. i, string.rep('x', 200)) end",
    0,
  );
  await redis.config("SET", "maxmemory", "1mb");
  await expect(redis.set("probe", "1")).rejects.toThrow(/^OOM /);

  const error = await locks.acquire({ kind: "order", id: "o-1" }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(LockUnavailableError);
  expect((error as LockUnavailableError).reason).toBe("oom");

  let ran = 0;
  const task = async () => ++ran;
  // update: proceed-db-only (a payment must still be recorded), order: refuse, job: skip.
  expect(await locks.withLock({ kind: "update", id: 1 }, task)).toEqual({
    status: "ok",
    value: 1,
    fence: null,
    degraded: true,
    lost: null,
  });
  expect(await locks.withLock({ kind: "order", id: 1 }, task)).toEqual({ status: "unavailable" });
  expect(await locks.withLock({ kind: "job", id: "relay" }, task)).toEqual({ status: "skipped" });
  expect(ran).toBe(1);

  // Releasing frees memory, which a full Redis still allows.
  if (held.ok) expect(await held.lease.release()).toBe("released");
  await redis.config("SET", "maxmemory", "0");
  expect((await locks.acquire({ kind: "order", id: "o-1" })).ok).toBe(true);
});

it("an OOM on acquire leaves the breaker closed and never stops renewals or releases, which a full Redis still takes", async () => {
  const own = fastClient(server.url);
  await ready(own);
  const manager = layeredManager(own, "oom-breaker"); // its breaker opens after 5 failures
  try {
    const { outcome, key } = await holdWhile(manager, async () => {
      await redis.config("SET", "maxmemory", "1mb"); // still full of the first test's data
      for (let i = 0; i < 6; i++) {
        const error = await manager.acquire({ kind: "order", id: `new-${i}` }).catch((e) => e);
        expect((error as LockUnavailableError).reason).toBe("oom");
      }
      expect(manager.stats().breaker).toBe("closed"); // OOM is an answer, not an outage
    });
    expect(outcome).toMatchObject({ status: "ok", value: { aborted: false, held: true } });
    expect(await redis.exists(key)).toBe(0); // released, not left to its TTL
  } finally {
    await redis.config("SET", "maxmemory", "0");
    await manager.close();
    own.disconnect();
  }
});

it("an open breaker refuses acquires only: a held lease keeps renewing and is released", async () => {
  const own = fastClient(server.url);
  await ready(own);
  let failing = false; // acquires fail as if the connection dropped; everything else reaches Redis
  const redisOf = new Proxy(own, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as (...a: unknown[]) => unknown;
      if (property === "evalsha" && failing)
        return (sha: string, ...rest: unknown[]) =>
          sha === tryScript.sha
            ? Promise.reject(new Error("Connection is closed."))
            : value.call(target, sha, ...rest);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const manager = layeredManager(redisOf, "breaker-open");
  try {
    const { outcome, key } = await holdWhile(manager, async () => {
      failing = true;
      for (let i = 0; i < 5; i++) await manager.acquire({ kind: "job", id: i }).catch(() => {});
      expect(manager.stats().breaker).toBe("open");
    });
    expect(outcome).toMatchObject({ status: "ok", value: { aborted: false, held: true } });
    expect(await redis.exists(key)).toBe(0);
  } finally {
    await manager.close();
    own.disconnect();
  }
});
