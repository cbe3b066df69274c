// A holder whose process stalls (GC, a VM pause, synchronous work) past its lease: when it
// resumes, Node.js runs waiting I/O callbacks before timers, so the task's awaited query returns
// before the lease's guard timer fires. `held`, the signal and assertHeld() must already say lost.
import { expect, it } from "vitest";
import { LeaseLostError, type Lease } from "../src/index.ts";
import {} from "./support.ts";
import { useSharedRedis } from "./use-shared-redis.ts";

const fx = useSharedRedis();

/** Sends a query, stalls the process `ms` inside a timer callback, and reads the lease when the
 * query's reply resumes the task (I/O before the next timers phase). */
function stallAcrossQuery(lease: Lease, signal: AbortSignal, ms: number) {
  return new Promise<Record<string, unknown>>((resolve) => {
    setTimeout(() => {
      void (async () => {
        const reply = fx.test.redis.get(lease.key);
        const end = Date.now() + ms;
        while (Date.now() < end); // the stall
        const token = await reply;
        let assertion: unknown;
        try {
          lease.assertHeld();
        } catch (error) {
          assertion = error;
        }
        const late = Date.now() - lease.abortsAt;
        resolve({ token, held: lease.held, aborted: signal.aborted, assertion, late });
      })();
    }, 0);
  });
}

it("after a stall past its lease, the task's next I/O sees the lease lost: held false, signal aborted, assertHeld throws", async () => {
  const locks = await fx.make();
  const outcome = await locks.withLock(
    { kind: "order", id: "stalled" },
    ({ lease, signal }) => stallAcrossQuery(lease!, signal, 1000),
    { ttlMs: 300 },
  );
  if (outcome.status !== "ok") throw new Error("must run");
  const seen = outcome.value;
  expect(seen.late).toBeGreaterThan(0); // resumed past abortsAt
  expect(seen.token).not.toBeNull(); // the reply was sent before the stall, while it was held
  expect(seen.held).toBe(false);
  expect(seen.aborted).toBe(true);
  expect(seen.assertion).toBeInstanceOf(LeaseLostError);
  expect((seen.assertion as LeaseLostError).reason).toBe("expired");
  expect(locks.stats()).toMatchObject({ leases: 0, timers: 0 });
});

/** After a stall past the lease, when the task's query returns: what a signal derived from the
 * lease's reads once the task has read `lease.held` (`touch`) or once a timer has run. */
function derivedAfterStall(lease: Lease, signal: AbortSignal, touch: boolean) {
  const derived = AbortSignal.any([signal]);
  return new Promise<boolean>((resolve) => {
    setTimeout(() => {
      void (async () => {
        const reply = fx.test.redis.get(lease.key);
        const end = Date.now() + 500;
        while (Date.now() < end); // the stall
        await reply;
        if (touch) return resolve(!lease.held && derived.aborted);
        await new Promise((next) => setTimeout(next, 0)); // the next timers phase
        resolve(derived.aborted);
      })();
    }, 0);
  });
}

it.each([
  ["once the task reads the lease", true],
  ["at the next timer", false],
])("after a stall, a signal derived from the lease's aborts %s", async (_name, touch) => {
  const locks = await fx.make();
  const outcome = await locks.withLock(
    { kind: "order", id: `derived-${touch}` },
    ({ lease, signal }) => derivedAfterStall(lease!, signal, touch),
    { ttlMs: 300 },
  );
  expect(outcome).toMatchObject({ status: "ok", value: true });
});
