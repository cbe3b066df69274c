import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMetricsRegistry, silentLogger, type Registry } from "@orderbot/platform";
import {
  createTestRedis,
  startRedisServer,
  type RedisServer,
  type TestRedis,
} from "@orderbot/testkit";
import type { Job, JobContext } from "../../src/jobs/job.ts";
import { createJobRunner, type TickOutcome } from "../../src/jobs/runner.ts";
import { createWorkerMetrics } from "../../src/metrics.ts";
import { buildLocks } from "../support/locks.ts";
import { metricValue } from "../support/metrics.ts";

let t: TestRedis;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  t = await createTestRedis();
});
afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await t.cleanup();
});

interface RunRecord {
  worker: string;
  fence: number | null;
  start: number;
  end: number;
  steps: number;
  stepsAfterAbort: number;
}

/** A job of `steps` steps of `stepMs` each, checking its signal between steps, recording each run. */
function probeJob(
  name: string,
  records: RunRecord[],
  worker: string,
  opts: { steps: number; stepMs: number; intervalMs?: number; exclusive?: boolean },
): Job {
  return {
    name,
    intervalMs: opts.intervalMs ?? 20,
    jitter: 0.5,
    ...(opts.exclusive === false ? { exclusive: false } : {}),
    async run(ctx: JobContext) {
      const record: RunRecord = {
        worker,
        fence: ctx.fence,
        start: performance.now(),
        end: 0,
        steps: 0,
        stepsAfterAbort: 0,
      };
      records.push(record);
      let abortedAt: number | null = null;
      ctx.signal.addEventListener("abort", () => (abortedAt = record.steps));
      for (let i = 0; i < opts.steps; i++) {
        if (ctx.signal.aborted) break;
        await sleep(opts.stepMs);
        record.steps++;
      }
      record.stepsAfterAbort = abortedAt === null ? 0 : record.steps - abortedAt;
      record.end = performance.now();
      return { steps: record.steps };
    },
  };
}

async function runnerFor(
  worker: string,
  jobs: Job[],
  options: { url?: string; namespace?: string; lockTtlMs?: number } = {},
) {
  const registry: Registry = createMetricsRegistry();
  const { locks, close } = await buildLocks(options.url ?? t.url, options.namespace ?? t.namespace);
  const runner = createJobRunner({
    locks,
    jobs,
    logger: silentLogger,
    metrics: createWorkerMetrics(registry),
    ...(options.lockTtlMs ? { lockTtlMs: options.lockTtlMs } : {}),
  });
  closers.push(async () => {
    await runner.stop();
    await close();
  });
  return { runner, registry, locks };
}

describe("job runner", () => {
  it("runs an exclusive job on one worker at a time: run intervals never overlap and fences only grow", async () => {
    const records: RunRecord[] = [];
    const a = await runnerFor("a", [
      probeJob("probe-exclusive", records, "a", { steps: 3, stepMs: 15 }),
    ]);
    const b = await runnerFor("b", [
      probeJob("probe-exclusive", records, "b", { steps: 3, stepMs: 15 }),
    ]);
    a.runner.start();
    b.runner.start();
    await sleep(2000);
    await Promise.all([a.runner.stop(), b.runner.stop()]);

    const runs = [...records].sort((x, y) => x.start - y.start);
    expect(runs.length).toBeGreaterThan(5);
    for (let i = 1; i < runs.length; i++) {
      expect(runs[i]!.start).toBeGreaterThanOrEqual(runs[i - 1]!.end);
      expect(runs[i]!.fence!).toBeGreaterThan(runs[i - 1]!.fence!);
    }
    // The two really contended: some ticks found the other one leading.
    const notLeader =
      (await metricValue(a.registry, "orderbot_job_runs_total", {
        job: "probe-exclusive",
        outcome: "not_leader",
      })) +
      (await metricValue(b.registry, "orderbot_job_runs_total", {
        job: "probe-exclusive",
        outcome: "not_leader",
      }));
    expect(notLeader).toBeGreaterThan(0);
  });

  it("runs a shared job on every worker at once, without a lock", async () => {
    const records: RunRecord[] = [];
    const a = await runnerFor("a", [
      probeJob("probe-shared", records, "a", { steps: 10, stepMs: 20, exclusive: false }),
    ]);
    const b = await runnerFor("b", [
      probeJob("probe-shared", records, "b", { steps: 10, stepMs: 20, exclusive: false }),
    ]);
    const [ra, rb] = await Promise.all([
      a.runner.runOnce("probe-shared"),
      b.runner.runOnce("probe-shared"),
    ]);
    expect([ra, rb]).toEqual(["ran", "ran"]);
    const [x, y] = records;
    expect(x!.start < y!.end && y!.start < x!.end).toBe(true); // they overlapped
    expect(records.map((r) => r.fence)).toEqual([null, null]);
    expect(await t.redis.exists(a.locks.keyFor({ kind: "job", id: "probe-shared" }))).toBe(0);
  });

  it("aborts the job's signal when its lease is lost; the job stops at its next step and the loss is counted", async () => {
    const records: RunRecord[] = [];
    const a = await runnerFor(
      "a",
      [probeJob("probe-lost", records, "a", { steps: 1000, stepMs: 20 })],
      { lockTtlMs: 600 },
    );
    const key = a.locks.keyFor({ kind: "job", id: "probe-lost" });
    const tick = a.runner.runOnce("probe-lost");
    await sleep(100);
    await t.redis.set(key, "another-holder"); // taken over: the next renewal finds another owner
    const outcome = await tick;
    expect(outcome).toBe<TickOutcome>("lease-lost");
    expect(records[0]!.steps).toBeLessThan(1000);
    expect(records[0]!.stepsAfterAbort).toBeLessThanOrEqual(1);
    expect(
      await metricValue(a.registry, "orderbot_job_lease_lost_total", { job: "probe-lost" }),
    ).toBe(1);
    expect(await t.redis.get(key)).toBe("another-holder"); // releasing did not delete the new holder's lock
  });

  it("at shutdown lets the running step finish, then releases the lock", async () => {
    const records: RunRecord[] = [];
    const a = await runnerFor("a", [
      probeJob("probe-stop", records, "a", { steps: 1000, stepMs: 50 }),
    ]);
    const key = a.locks.keyFor({ kind: "job", id: "probe-stop" });
    const tick = a.runner.runOnce("probe-stop");
    await sleep(120);
    expect(await t.redis.exists(key)).toBe(1);
    await a.runner.stop();
    expect(await tick).toBe<TickOutcome>("stopped");
    expect(records[0]!.steps).toBeGreaterThanOrEqual(2);
    expect(records[0]!.stepsAfterAbort).toBe(1); // the step under way when stop() came
    expect(await t.redis.exists(key)).toBe(0);
  });

  it("keeps the lease between runs for a job that asks to (one fence per term); a failed run gives it up", async () => {
    const records: RunRecord[] = [];
    let failNext = false;
    const sticky = (worker: string): Job => {
      const probe = probeJob("probe-sticky", records, worker, {
        steps: 1,
        stepMs: 5,
        intervalMs: 30,
      });
      return {
        ...probe,
        keepLeadership: true,
        async run(ctx) {
          const summary = await probe.run(ctx);
          if (failNext) {
            failNext = false;
            throw new Error("run failed");
          }
          return summary;
        },
      };
    };
    const a = await runnerFor("a", [sticky("a")]);
    const b = await runnerFor("b", [sticky("b")]);
    a.runner.start();
    b.runner.start();
    await sleep(800);
    const firstTerm = records[0]!;
    const term = records.filter((r) => r.fence === firstTerm.fence);
    expect(term.length).toBeGreaterThan(5);
    expect(term.every((r) => r.worker === firstTerm.worker)).toBe(true);
    expect(records.every((r) => r.fence === firstTerm.fence)).toBe(true); // nobody else got in
    failNext = true;
    await sleep(800);
    await Promise.all([a.runner.stop(), b.runner.stop()]);
    const fences = [...new Set(records.map((r) => r.fence))];
    expect(fences.length).toBeGreaterThan(1); // after the failure a new term began
    const runs = [...records].sort((x, y) => x.start - y.start);
    for (let i = 1; i < runs.length; i++)
      expect(runs[i]!.start).toBeGreaterThanOrEqual(runs[i - 1]!.end);
  });

  it("keeps a kept lease for as long as the leader runs, however many renewals it took", async () => {
    const records: RunRecord[] = [];
    const probe = probeJob("probe-long-term", records, "a", {
      steps: 1,
      stepMs: 5,
      intervalMs: 30,
    });
    const a = await runnerFor("a", [{ ...probe, keepLeadership: true }], { lockTtlMs: 300 });
    a.runner.start();
    await sleep(2_500); // some 25 renewals of a 300 ms lease
    const stoppedAt = performance.now();
    await a.runner.stop();
    expect(records.length).toBeGreaterThan(20);
    expect(new Set(records.map((r) => r.fence)).size).toBe(1); // one term: the lease never read as lost
    // No run was cut short while the leader ran; stop() may cut the one in progress (its step ends after).
    expect(records.filter((r) => r.stepsAfterAbort > 0 && r.end < stoppedAt)).toEqual([]);
    expect(records.filter((r) => r.stepsAfterAbort > 0).length).toBeLessThanOrEqual(1);
  });

  describe("when Redis is down", () => {
    let server: RedisServer;
    beforeAll(async () => {
      server = await startRedisServer();
    });
    afterAll(() => server.dispose());

    it("pauses exclusive jobs (the job kind's policy is skip) and resumes when Redis is back", async () => {
      const records: RunRecord[] = [];
      const a = await runnerFor(
        "a",
        [probeJob("probe-down", records, "a", { steps: 1, stepMs: 1 })],
        { url: server.url, namespace: "test-down" },
      );
      expect(await a.runner.runOnce("probe-down")).toBe("ran");
      await server.stop();
      expect(await a.runner.runOnce("probe-down")).toBe("paused");
      expect(records).toHaveLength(1);
      await server.start();
      let outcome: TickOutcome = "paused";
      for (let i = 0; i < 50 && outcome !== "ran"; i++) {
        await sleep(100);
        outcome = await a.runner.runOnce("probe-down");
      }
      expect(outcome).toBe("ran");
      expect(records).toHaveLength(2);
    });
  });
});
