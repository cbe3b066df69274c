// withLock's watchdog: renews every ttl/3 while the task runs, and aborts the lease's signal the
// moment the lease can no longer be trusted — renewal refused or failed, connection dropped, a
// cap reached, or the lease about to run out before a renewal could land.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setTimeout as sleep } from "node:timers/promises";
import { Redis } from "ioredis";
import { Registry } from "prom-client";
import { createLockManager, LeaseLostError, LOCK_METRICS, type LockManager } from "../src/index.ts";
import {
  aborted,
  fastClient,
  HASH_KEY,
  KINDS,
  ready,
  sharedRedis,
  slowManager,
  withLayers,
} from "./support.ts";
import { useSharedRedis, useOwnRedis } from "./use-shared-redis.ts";

async function metricValue(
  registry: Registry,
  name: string,
  labels: Record<string, string>,
): Promise<number> {
  const metric = await registry.getSingleMetric(name)!.get();
  return (
    metric.values.find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l))?.value ??
    0
  );
}

describe("on the shared Redis", () => {
  const fx = useSharedRedis();

  it("keeps the lock through a task five times longer than its TTL", async () => {
    const registry = new Registry();
    const locks = await fx.make({ registry });
    const rival = await fx.make();
    const resource = { kind: "order", id: "long-task" };
    const outcome = await locks.withLock(
      resource,
      async ({ lease, signal }) => {
        for (let elapsed = 0; elapsed < 1500; elapsed += 100) {
          await sleep(100);
          expect(signal.aborted).toBe(false);
          expect(await fx.test.redis.get(lease!.key)).toBe(lease!.token);
          expect((await rival.acquire(resource, { waitMs: 0 })).ok).toBe(false);
        }
        return "done";
      },
      { ttlMs: 300 },
    );
    expect(outcome).toMatchObject({ status: "ok", value: "done", degraded: false, lost: null });
    expect(
      await metricValue(registry, LOCK_METRICS.renewalsTotal, { outcome: "ok" }),
    ).toBeGreaterThanOrEqual(4);
    expect(await fx.test.redis.exists(locks.keyFor(resource))).toBe(0);
    expect(locks.stats()).toMatchObject({ timers: 0, leases: 0 });
  });

  it("aborts the signal when a renewal finds the lock taken over, and counts the loss", async () => {
    const registry = new Registry();
    const locks = await fx.make({ registry });
    const outcome = await locks.withLock(
      { kind: "order", id: "taken-over" },
      async ({ lease, signal }) => {
        await fx.test.redis.set(lease!.key, "someone-else", "PX", 5000); // our lease expired and was taken
        const reason = await aborted(signal);
        expect(reason).toBeInstanceOf(LeaseLostError);
        expect((reason as LeaseLostError).reason).toBe("not-owner");
        return "stopped";
      },
      { ttlMs: 300 },
    );
    expect(outcome.status).toBe("ok");
    expect(await fx.test.redis.get(locks.keyFor({ kind: "order", id: "taken-over" }))).toBe(
      "someone-else",
    );
    expect(await metricValue(registry, LOCK_METRICS.renewalsTotal, { outcome: "lost" })).toBe(1);
    expect(await metricValue(registry, LOCK_METRICS.leaseLostTotal, { kind: "order" })).toBe(1);
    expect(await metricValue(registry, LOCK_METRICS.releaseNotOwnerTotal, { kind: "order" })).toBe(
      1,
    );
  });

  it("stops renewing at maxRenewals: the signal aborts before the lease runs out", async () => {
    const registry = new Registry();
    const locks = await fx.make({ registry });
    let key = "";
    const outcome = await locks.withLock(
      { kind: "order", id: "capped" },
      async ({ lease, signal }) => {
        key = lease!.key;
        const reason = (await aborted(signal)) as LeaseLostError;
        expect(reason.reason).toBe("renewal-capped");
        expect(await fx.test.redis.get(key)).toBe(lease!.token); // aborted with a margin, before expiry
        return "stopped";
      },
      // The margin is a tenth of the TTL: 205 ms leaves room for a loaded machine's GET (300 ms
      // left 35, and a CI run's GET came after the expiry).
      { ttlMs: 2_000, maxRenewals: 2 },
    );
    expect(outcome.status).toBe("ok");
    expect(await metricValue(registry, LOCK_METRICS.renewalsTotal, { outcome: "ok" })).toBe(2);
  });

  it("does not renew past maxHoldMs", async () => {
    const locks = await fx.make();
    const started = Date.now();
    const outcome = await locks.withLock(
      { kind: "order", id: "hold-cap" },
      async ({ signal }) => {
        const reason = (await aborted(signal)) as LeaseLostError;
        expect(reason.reason).toBe("renewal-capped");
      },
      { ttlMs: 300, maxHoldMs: 600 },
    );
    expect(Date.now() - started).toBeLessThan(1500); // not renewed for ever
    expect(outcome).toMatchObject({ status: "ok", lost: "renewal-capped" }); // the outcome says so
  });

  it("aborts when the event loop was blocked past the lease: the holder must not assume it still holds it", async () => {
    const locks = await fx.make();
    await locks.withLock(
      { kind: "order", id: "blocked" },
      async ({ signal }) => {
        const until = Date.now() + 350;
        while (Date.now() < until) {
          // CPU-bound work that starves the watchdog of its turn
        }
        await sleep(1);
        expect(signal.aborted).toBe(true);
        expect((signal.reason as LeaseLostError).reason).toBe("expired");
      },
      { ttlMs: 300 },
    );
  });

  it("releases the lock and stops renewing when the task throws", async () => {
    const locks = await fx.make();
    const resource = { kind: "order", id: "throws" };
    await expect(
      locks.withLock(
        resource,
        async () => {
          await sleep(150);
          throw new Error("task failed");
        },
        { ttlMs: 300 },
      ),
    ).rejects.toThrow("task failed");
    expect(await fx.test.redis.exists(locks.keyFor(resource))).toBe(0);
    expect(locks.stats()).toMatchObject({ timers: 0, leases: 0 });
  });
});

describe("on a Redis server of the test's own", () => {
  const server = useOwnRedis();
  let redis: Redis;
  let locks: LockManager;
  let registry: Registry;
  beforeAll(async () => {
    redis = fastClient(server.url);
    await ready(redis);
    registry = new Registry();
    locks = createLockManager(
      withLayers({
        redis,
        namespace: "renewal",
        hashKey: HASH_KEY,
        kinds: KINDS,
        registry,
        commandTimeoutMs: 200,
      }),
    );
  });
  afterAll(async () => {
    await locks.close();
    redis.disconnect();
  });

  it("aborts the signal within one renewal interval when the connection is cut", async () => {
    const admin = new Redis(server.url);
    const id = await redis.client("ID");
    const events: string[] = [];
    const outcome = await locks.withLock(
      { kind: "order", id: "cut" },
      async ({ signal }) => {
        signal.addEventListener("abort", () => events.push("aborted"));
        await sleep(100); // the first renewal is due at 1000 ms
        const renewalsBefore = await metricValue(registry, LOCK_METRICS.renewalsTotal, {
          outcome: "ok",
        });
        events.push("killed");
        await admin.client("KILL", "ID", String(id));
        const reason = (await aborted(signal, 1000)) as LeaseLostError; // within one renewal interval
        expect(reason.reason).toBe("connection-lost");
        expect(await metricValue(registry, LOCK_METRICS.renewalsTotal, { outcome: "ok" })).toBe(
          renewalsBefore,
        );
        return "stopped";
      },
      { ttlMs: 3000 },
    );
    admin.disconnect();
    expect(events).toEqual(["killed", "aborted"]);
    expect(outcome.status).toBe("ok");
    await ready(redis); // the client reconnects by itself
  });

  it("aborts the signal when a renewal times out (a hung Redis)", async () => {
    const outcome = await locks.withLock(
      { kind: "order", id: "hung" },
      async ({ signal }) => {
        server.pause();
        try {
          const reason = (await aborted(signal, 2000)) as LeaseLostError;
          expect(reason.reason).toBe("renewal-failed");
        } finally {
          server.resume();
        }
        return "stopped";
      },
      { ttlMs: 900 },
    );
    expect(outcome.status).toBe("ok");
    expect(await metricValue(registry, LOCK_METRICS.renewalsTotal, { outcome: "error" })).toBe(1);
  });
});

it("a renewal that shortens the lease moves its signal's deadline before the reply comes back", async () => {
  const fx = await sharedRedis();
  const { locks, replies, close } = await slowManager(fx, 300); // Redis runs each script at once; its reply comes 300 ms later
  try {
    const result = await locks.acquire(
      { kind: "order", id: "shorten" },
      { ttlMs: 1000, waitMs: 0 },
    );
    if (!result.ok) throw new Error("must acquire");
    const { lease } = result;
    expect(await lease.extend(1000)).toBe(true); // loads extend.lua: the EVAL after a NOSCRIPT is not slowed
    const started = performance.now();
    let abortedAfter = Infinity;
    lease.signal.addEventListener("abort", () => (abortedAfter = performance.now() - started));
    replies.slow = true;
    const extended = lease.extend(200); // the lock is gone from Redis 200 ms from now
    await sleep(250);
    expect(await fx.test.redis.exists(lease.key)).toBe(0);
    expect(abortedAfter).toBeLessThan(200); // the holder was told before the lock could be taken
    expect(await extended).toBe(false);
  } finally {
    await close();
    await fx.dispose();
  }
});
