// The leader-locked job: one worker at a time runs an exclusive job, under the `job` lock
// (packages/lock: SET NX PX and owner-checked Lua, its scripts in src/core/scripts.ts). The lease's
// signal reaches every step, so a leader that stalled past its lease stops at its next step.
import { setTimeout as sleep } from "node:timers/promises";
import type { LockManager } from "@orderbot/lock";
import { jitteredInterval } from "./job.ts";
import { leaseGuardedSignal } from "./lease-signal.ts";
import { runBody, type Run, type TickOutcome } from "./run-body.ts";
import type { WorkerMetrics } from "../metrics.ts";

/** What leading needs of the runner. */
export interface LeaderScope {
  deps: { locks: LockManager; metrics: WorkerMetrics; lockTtlMs?: number };
  shutdown: AbortController;
  /** How long a keepLeadership leader keeps its lease before it steps down (ms). */
  leadershipMs: number;
}

/** Takes the job's lock (no wait) and runs as its leader; "not-leader" when another worker has it. */
export async function runAsLeader(
  runner: LeaderScope,
  run: Omit<Run, "lease" | "leaseSignal">,
  once: boolean,
): Promise<TickOutcome> {
  const { locks, lockTtlMs: ttlMs } = runner.deps;
  const outcome = await locks.withLock(
    { kind: "job", id: run.job.name },
    ({ lease, signal }) => lead(runner, { ...run, lease, leaseSignal: signal }, once),
    { requestId: run.runId, ...(ttlMs ? { ttlMs } : {}) },
  );
  if (outcome.status === "ok") return outcome.value;
  // Redis down: the `job` kind's policy is skip, and the job pauses until Redis is back.
  return outcome.status === "busy" ? "not-leader" : "paused";
}

/** Runs as the leader: once, or (keepLeadership) every interval while the lease holds. */
async function lead(runner: LeaderScope, run: Run, once: boolean): Promise<TickOutcome> {
  const { job, lease, leaseSignal } = run;
  let outcome = await runBody(runner, run, true);
  const stepDownAt = lease ? lease.acquiredAt + runner.leadershipMs : Infinity;
  while (job.keepLeadership && !once && outcome === "ran" && Date.now() < stepDownAt) {
    runner.deps.metrics.jobRuns.inc({ job: job.name, outcome: "ran" });
    const stop = leaseGuardedSignal([leaseSignal, runner.shutdown.signal], null);
    try {
      await sleep(jitteredInterval(job), undefined, { signal: stop.signal, ref: false });
    } catch {
      return leaseSignal.aborted ? "lease-lost" : "stopped";
    } finally {
      stop.dispose();
    }
    outcome = await runBody(runner, run, false);
  }
  return outcome;
}
