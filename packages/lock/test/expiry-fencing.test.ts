// A holder that stops renewing past its TTL loses the lock to a second client: the second lease's
// fence is larger, the first holder's release reports not-owner and leaves the second's lock in
// place, and the first lease's signal has aborted.
import { expect, it } from "vitest";
import { Registry } from "prom-client";
import { LeaseLostError, LOCK_METRICS } from "../src/index.ts";
import { aborted, recordingLogger } from "./support.ts";
import { useSharedRedis } from "./use-shared-redis.ts";

const fx = useSharedRedis();

it("expiry hands the lock to the next client with a larger fence; the stale holder can no longer touch it", async () => {
  const registry = new Registry();
  const logger = recordingLogger();
  const first = await fx.make({ registry, logger });
  const second = await fx.make();
  const resource = { kind: "order", id: "o-1" };

  const a = await first.acquire(resource, { ttlMs: 200, waitMs: 0 });
  if (!a.ok) throw new Error("the first acquire must succeed");
  const events: string[] = [];
  a.lease.signal.addEventListener("abort", () => events.push("first lease aborted"));

  // The first holder stalls (no renewal). The second waits and gets the lock once it expired.
  const b = await second.acquire(resource, { ttlMs: 5000, waitMs: 2000 });
  events.push("second acquired");
  if (!b.ok) throw new Error("the second acquire must succeed after the first lease expired");
  expect(b.lease.fence).toBeGreaterThan(a.lease.fence);

  // The first lease's signal aborted before its lock could be taken over (safety margin).
  expect(events).toEqual(["first lease aborted", "second acquired"]);
  const reason = await aborted(a.lease.signal);
  expect(reason).toBeInstanceOf(LeaseLostError);
  expect((reason as LeaseLostError).reason).toBe("expired");

  expect(await a.lease.release()).toBe("not-owner");
  expect(await fx.test.redis.get(b.lease.key)).toBe(b.lease.token);
  expect(await a.lease.extend()).toBe(false);
  expect(await fx.test.redis.get(b.lease.key)).toBe(b.lease.token);

  const notOwner = await registry.getSingleMetric(LOCK_METRICS.releaseNotOwnerTotal)!.get();
  // One not-owner release, of kind order; every other kind's series is there, at zero.
  const byKind = Object.fromEntries(
    notOwner.values.map((sample) => [sample.labels.kind, sample.value]),
  );
  expect(byKind).toEqual({ order: 1, checkout: 0, update: 0, job: 0 });
  const warning = logger.lines.find(
    (line) => line.level === "warn" && line.msg?.includes("no longer ours"),
  );
  expect(warning?.obj).toMatchObject({ kind: "order", id: "o-1", fence: a.lease.fence });
  expect(JSON.stringify(logger.lines)).not.toContain(a.lease.token);

  expect(await b.lease.release()).toBe("released");
  expect(await fx.test.redis.exists(b.lease.key)).toBe(0);
});

it("releasing twice reports the first outcome and sends nothing more", async () => {
  const locks = await fx.make();
  const result = await locks.acquire({ kind: "order", id: "o-2" }, { waitMs: 0 });
  if (!result.ok) throw new Error("must acquire");
  const [once, twice] = await Promise.all([result.lease.release(), result.lease.release()]);
  expect([once, twice]).toEqual(["released", "released"]);
  expect(locks.stats()).toMatchObject({ leases: 0, timers: 0 });
});

it("a signal first looked at after its lease ran out is aborted already", async () => {
  const locks = await fx.make();
  const result = await locks.acquire(
    { kind: "order", id: "o-late-look" },
    { ttlMs: 200, waitMs: 0 },
  );
  if (!result.ok) throw new Error("must acquire");
  await new Promise((resolve) => setTimeout(resolve, 300)); // nobody looked at the signal meanwhile
  const signal = result.lease.signal;
  expect(signal.aborted).toBe(true); // not only at the next timer tick
  expect((signal.reason as LeaseLostError).reason).toBe("expired");
  expect(locks.stats()).toMatchObject({ leases: 0, timers: 0 });
  expect(await result.lease.release()).toBe("not-owner");
});

it("keeps a kind's fence counter only for its fenceRetentionMs (never less than the lease), and fences still grow", async () => {
  const kinds = {
    update: { ttlMs: 500, waitMs: 0, outage: "proceed-db-only" as const, fenceRetentionMs: 1 },
    order: { ttlMs: 500, waitMs: 0, outage: "refuse" as const },
  };
  const locks = await fx.make({ kinds }); // the order kind keeps the default hour
  const fences: number[] = [];
  for (const kind of ["update", "order"]) {
    const result = await locks.acquire({ kind, id: "retention" });
    if (!result.ok) throw new Error("must acquire");
    fences.push(result.lease.fence);
    const pttl = await fx.test.redis.pttl(`${result.lease.key}:fence`);
    if (kind === "update")
      expect(pttl).toBeLessThanOrEqual(500); // the lease, not an hour
    else expect(pttl).toBeGreaterThan(3_000_000);
    await result.lease.release();
  }
  // The update kind's counter is gone half a second later; its next fence is larger all the same.
  await new Promise((resolve) => setTimeout(resolve, 600));
  const key = locks.keyFor({ kind: "update", id: "retention" });
  expect(await fx.test.redis.exists(`${key}:fence`)).toBe(0);
  const again = await locks.acquire({ kind: "update", id: "retention" });
  if (!again.ok) throw new Error("must acquire");
  expect(again.lease.fence).toBeGreaterThan(fences[0]!);
  await again.lease.release();
});
