// Every lock a job run takes names the run: the runner's own `job` lock and the locks core takes
// for the job (here `group-admins`, through the worker's async context). The warnings an operator
// reads after an incident (a release that found the lock gone, a lease lost mid-run) carry it.
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { createShop, defaultShopConfig, LOCK_KINDS } from "@orderbot/core";
import { createMetricsRegistry, silentLogger } from "@orderbot/platform";
import { useRecordedLocks, useTestDatabase } from "@orderbot/testkit";
import type { Job, JobContext } from "../../src/jobs/job.ts";
import { currentJobRun } from "../../src/jobs/run-scope.ts";
import { createJobRunner } from "../../src/jobs/runner.ts";
import { createWorkerMetrics } from "../../src/metrics.ts";
import { HASH_KEY } from "../support/locks.ts";

// Short leases, so that a lost lease shows within a renewal (ttl/3).
const KINDS = {
  ...LOCK_KINDS,
  job: { ...LOCK_KINDS.job, ttlMs: 300, maxHoldMs: 3_000 },
  "group-admins": { ...LOCK_KINDS["group-admins"], ttlMs: 300, maxHoldMs: 3_000 },
};

const testDb = useTestDatabase({ poolMax: 5 });
const fx = useRecordedLocks({ kinds: KINDS, hashKey: HASH_KEY });
const config = defaultShopConfig(HASH_KEY); // the shop hashes personal ids with the locks' key

/** Runs `run` once as the job `name`, under the runner, and returns the run's id. */
async function runOnce(name: string, run: (ctx: JobContext) => Promise<void>): Promise<string> {
  let runId = "";
  const job: Job = {
    name,
    intervalMs: 60_000,
    async run(ctx) {
      runId = ctx.runId;
      await run(ctx);
    },
  };
  const runner = createJobRunner({
    locks: fx.locks,
    jobs: [job],
    logger: silentLogger,
    metrics: createWorkerMetrics(createMetricsRegistry()),
  });
  await runner.runOnce(name);
  await runner.stop();
  return runId;
}

const warnings = (message: RegExp) =>
  fx.lines.filter((line) => line.level === "warn" && message.test(line.msg ?? ""));

const aborted = (signal: AbortSignal) =>
  new Promise<void>((resolve) =>
    signal.aborted ? resolve() : signal.addEventListener("abort", () => resolve()),
  );

describe("lock warnings name the job run", () => {
  it("a release that finds the job lock gone logs the run id", async () => {
    const runId = await runOnce("drops-its-lock", async () => {
      await fx.redis.del(fx.locks.keyFor({ kind: "job", id: "drops-its-lock" }));
    });
    expect(runId).toMatch(/^job:drops-its-lock:[0-9a-f]{8}$/);
    const [line] = warnings(/no longer ours/).filter((l) => l.obj.kind === "job");
    expect(line?.obj.requestId).toBe(runId);
  });

  it("a job lease lost mid-run logs the run id", async () => {
    const runId = await runOnce("loses-its-lease", async (ctx) => {
      await fx.redis.del(fx.locks.keyFor({ kind: "job", id: "loses-its-lease" }));
      await aborted(ctx.leaseSignal); // the watchdog's next renewal finds the lock gone
    });
    const lost = warnings(/lease lost/).filter((l) => l.obj.kind === "job");
    expect(lost.map((l) => l.obj.requestId)).toContain(runId);
  });

  it("a lock core takes for the job (group-admins) logs the same run id", async () => {
    const shop = createShop({ db: testDb.db, locks: fx.locks, requestId: currentJobRun, config });
    const chatId = -100_777_001n;
    await testDb.db.operatorGroup.create({
      data: { chatId, title: "Ops", adminIds: [], boundBy: 1n },
    });
    const runId = await runOnce("refreshes-admins", async () => {
      await shop.groups
        .refreshAdmins(chatId, async (signal) => {
          await fx.redis.del(fx.locks.keyFor({ kind: "group-admins", id: chatId }));
          if (signal) await Promise.race([aborted(signal), sleep(2_000)]);
          return [1];
        })
        .catch(() => undefined); // the lost lease throws out of refreshAdmins: expected here
    });
    const lost = warnings(/lease lost/).filter((l) => l.obj.kind === "group-admins");
    expect(lost.map((l) => l.obj.requestId)).toEqual([runId]);
    expect(JSON.stringify(lost)).not.toContain(String(chatId)); // the chat is personal: hashed
  });
});
