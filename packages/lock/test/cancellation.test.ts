// A caller that gives up while its task runs under withLock: the watchdog stops and the lease's
// signal aborts with the caller's reason at once, but the lock is released only when the task
// returns (or expires): work that cannot be aborted must not overlap another holder's.
import { expect, it } from "vitest";
import { setTimeout as sleep } from "node:timers/promises";
import { Registry } from "prom-client";
import { LOCK_METRICS } from "../src/index.ts";
import { aborted } from "./support.ts";
import { useSharedRedis } from "./use-shared-redis.ts";

const fx = useSharedRedis();

async function renewals(registry: Registry): Promise<number> {
  const metric = await registry.getSingleMetric(LOCK_METRICS.renewalsTotal)!.get();
  return metric.values.reduce((sum, sample) => sum + sample.value, 0);
}

it("a caller aborted while its task runs stops the renewals, aborts the lease signal and releases the lock once the task returns", async () => {
  const registry = new Registry();
  const locks = await fx.make({ registry });
  const rival = await fx.make();
  const resource = { kind: "order", id: "cancelled-task" };
  const caller = new AbortController();
  let renewalsAtAbort = -1;
  let key = "";
  let rivalWhileRunning: boolean | undefined;
  const outcome = locks.withLock(
    resource,
    async ({ lease, signal }) => {
      key = lease!.key;
      await sleep(350); // ttl/3 = 300 ms: the watchdog has renewed by now
      expect(await renewals(registry)).toBeGreaterThan(0);
      renewalsAtAbort = await renewals(registry);
      caller.abort(new Error("the caller gave up"));
      const reason = await aborted(signal, 100);
      expect((reason as Error).message).toBe("the caller gave up");
      // A task slow to notice (a COMMIT in flight) keeps running: the lock stays until it returns.
      await sleep(200);
      expect(await fx.test.redis.get(key)).toBe(lease!.token);
      rivalWhileRunning = (await rival.acquire(resource, { waitMs: 0 })).ok;
      return "ended late";
    },
    { ttlMs: 900, signal: caller.signal, requestId: "cancel-1" },
  );
  await expect(outcome).resolves.toMatchObject({ status: "ok", value: "ended late" });
  expect(rivalWhileRunning).toBe(false);
  expect(await fx.test.redis.exists(key)).toBe(0); // released once the task returned
  const taken = await rival.acquire(resource, { waitMs: 0 });
  expect(taken.ok).toBe(true);
  if (taken.ok) await taken.lease.release();
  expect(renewalsAtAbort).toBeGreaterThan(0);
  expect(await renewals(registry)).toBe(renewalsAtAbort);
  expect(locks.stats()).toMatchObject({ timers: 0, leases: 0 });
  const lost = await registry.getSingleMetric(LOCK_METRICS.leaseLostTotal)!.get();
  expect(lost.values.reduce((sum, sample) => sum + sample.value, 0)).toBe(0); // given up, not lost
});

it("a task that runs on after its caller gave up overlaps the next holder from the lock's expiry; the next fence is larger", async () => {
  const [locks, rival] = [await fx.make(), await fx.make()];
  const resource = { kind: "order", id: "overlapped" };
  const caller = new AbortController();
  let rivalFence = 0;
  const outcome = await locks.withLock(
    resource,
    async ({ lease }) => {
      caller.abort(new Error("the caller gave up")); // no renewal from now on
      const taken = await rival.acquire(resource, { waitMs: 5000 }); // while this task still runs
      if (!taken.ok) throw new Error("the rival must get the lock once it expires");
      rivalFence = taken.lease.fence;
      await taken.lease.release();
      return lease!.fence;
    },
    { ttlMs: 300, signal: caller.signal },
  );
  if (outcome.status !== "ok") throw new Error("must run");
  expect(rivalFence).toBeGreaterThan(outcome.value);
});
