import { setTimeout as sleep } from "node:timers/promises";
import { LOCK_KINDS } from "@orderbot/core";
import { TransactionAbortedError } from "@orderbot/db";
import { LeaseLostError, type LockManager } from "@orderbot/lock";
import type { Logger } from "@orderbot/platform";
import type { Job, JobContext } from "./job.ts";
import { LeaseDeadlinePassedError, leaseGuardedSignal } from "./lease-signal.ts";
import { inJobRun, newRunId } from "./run-scope.ts";
import type { WorkerMetrics } from "../metrics.ts";

export interface JobRunnerDeps {
  locks: LockManager;
  jobs: readonly Job[];
  logger: Logger;
  metrics: WorkerMetrics;
  /** Lease of the job locks (ms); the `job` kind's default when unset. */
  lockTtlMs?: number;
  /**
   * How long a keepLeadership leader keeps its lease before it steps down (ms), so that it hands
   * over before the `job` kind's hold cap ends the lease under it. Default: half of that cap.
   */
  leadershipMs?: number;
}

export type TickOutcome = "ran" | "not-leader" | "paused" | "failed" | "lease-lost" | "stopped";

type HeldLease = { fence: number; expiresAt: number; abortsAt: number; acquiredAt: number };

/** An error that only says the run was cut short by its lease or the shutdown. */
function isStop(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if (
      e instanceof LeaseLostError ||
      e instanceof LeaseDeadlinePassedError ||
      e instanceof TransactionAbortedError
    )
      return true;
  }
  return false;
}

const jittered = (job: Job): number => {
  const jitter = job.jitter ?? 0.2;
  return job.intervalMs * (1 - jitter + Math.random() * 2 * jitter);
};

/**
 * Runs each job on an interval with jitter. An exclusive job runs under
 * `withLock({ kind: "job", id: name })`: one worker (the leader) runs it while the lock's watchdog
 * renews the lease. A lost lease or a shutdown aborts the job's signal, and the job stops at its
 * next step. When Redis is down the `job` kind's policy is `skip`: the job pauses until Redis is
 * back. Every run logs its start and end with its fence ("job run started" / "job run finished",
 * debug level): overlapping leaders would show there.
 */
export interface JobRunner {
  /** Runs the job once now, as the leader if it can be (tests, the demo, and a manual trigger). */
  runOnce(name: string): Promise<TickOutcome>;
  start(): void;
  /** Stops scheduling, lets running jobs finish their current step, and waits for them. */
  stop(): Promise<void>;
}

export function createJobRunner(deps: JobRunnerDeps): JobRunner {
  const runner: Runner = {
    deps,
    shutdown: new AbortController(),
    timers: new Set(),
    running: new Set(),
    leadershipMs: deps.leadershipMs ?? LOCK_KINDS.job.maxHoldMs / 2,
  };
  return {
    runOnce(name) {
      const job = deps.jobs.find((j) => j.name === name);
      if (!job) return Promise.reject(new UnknownJobError(name));
      const run = tick(runner, job, true);
      runner.running.add(run);
      void run.finally(() => runner.running.delete(run));
      return run;
    },
    start() {
      for (const job of deps.jobs) schedule(runner, job);
    },
    async stop() {
      runner.shutdown.abort(new Error("worker shutting down"));
      for (const timer of runner.timers) clearTimeout(timer);
      runner.timers.clear();
      await Promise.allSettled([...runner.running]);
    },
  };
}

/** A runner's dependencies and what it keeps: the shutdown, the timers, the runs in flight. */
interface Runner {
  deps: JobRunnerDeps;
  shutdown: AbortController;
  timers: Set<NodeJS.Timeout>;
  running: Set<Promise<TickOutcome>>;
  leadershipMs: number;
}

/** One tick of a job: its log, its lease (null: not exclusive) and the lease's signal. */
interface Run {
  job: Job;
  runId: string;
  log: Logger;
  lease: HeldLease | null;
  leaseSignal: AbortSignal;
}

function schedule(runner: Runner, job: Job): void {
  if (runner.shutdown.signal.aborted) return;
  const timer = setTimeout(() => {
    runner.timers.delete(timer);
    const run = tick(runner, job);
    runner.running.add(run);
    void run.finally(() => {
      runner.running.delete(run);
      schedule(runner, job);
    });
  }, jittered(job));
  timer.unref();
  runner.timers.add(timer);
}

async function tick(runner: Runner, job: Job, once = false): Promise<TickOutcome> {
  const { locks, logger, metrics, lockTtlMs: ttlMs } = runner.deps;
  const runId = newRunId(job.name);
  const log = logger.child({ job: job.name, runId });
  const run = { job, runId, log };
  let result: TickOutcome;
  try {
    if (job.exclusive === false) {
      const leaseSignal = new AbortController().signal;
      result = await inJobRun(runId, () =>
        runBody(runner, { ...run, lease: null, leaseSignal }, true),
      );
    } else {
      const outcome = await inJobRun(runId, () =>
        locks.withLock(
          { kind: "job", id: job.name },
          ({ lease, signal }) => lead(runner, { ...run, lease, leaseSignal: signal }, once),
          { requestId: runId, ...(ttlMs ? { ttlMs } : {}) },
        ),
      );
      result =
        outcome.status === "ok"
          ? outcome.value
          : outcome.status === "busy"
            ? "not-leader"
            : "paused";
    }
  } catch (error) {
    log.error({ err: error }, "job failed");
    result = "failed";
  }
  if (result === "lease-lost") {
    metrics.jobLeaseLost.inc({ job: job.name });
    log.warn("lease lost while the job ran; it stopped at its next step");
  }
  metrics.jobRuns.inc({ job: job.name, outcome: result.replace("-", "_") });
  return result;
}

/** Runs as the leader: once, or (keepLeadership) every interval while the lease holds. */
async function lead(runner: Runner, run: Run, once: boolean): Promise<TickOutcome> {
  const { job, lease, leaseSignal } = run;
  let outcome = await runBody(runner, run, true);
  const stepDownAt = lease ? lease.acquiredAt + runner.leadershipMs : Infinity;
  while (job.keepLeadership && !once && outcome === "ran" && Date.now() < stepDownAt) {
    runner.deps.metrics.jobRuns.inc({ job: job.name, outcome: "ran" });
    const stop = leaseGuardedSignal([leaseSignal, runner.shutdown.signal], null);
    try {
      await sleep(jittered(job), undefined, { signal: stop.signal, ref: false });
    } catch {
      return leaseSignal.aborted ? "lease-lost" : "stopped";
    } finally {
      stop.dispose();
    }
    outcome = await runBody(runner, run, false);
  }
  return outcome;
}

/** One run of the job's body. Throws what the job threw, unless it only reports the stop. */
async function runBody(runner: Runner, run: Run, firstRun: boolean): Promise<TickOutcome> {
  const { job, log, lease, runId } = run;
  const { shutdown } = runner;
  const guardedLease = leaseGuardedSignal([run.leaseSignal], lease);
  const guardedStop = leaseGuardedSignal([guardedLease.signal, shutdown.signal], lease);
  const ctx: JobContext = {
    leaseSignal: guardedLease.signal,
    signal: guardedStop.signal,
    fence: lease?.fence ?? null,
    firstRun,
    runId,
    logger: log,
  };
  const end = runner.deps.metrics.jobSeconds.startTimer({ job: job.name });
  const started = Date.now();
  log.debug({ fence: ctx.fence }, "job run started");
  let outcome: TickOutcome = "ran";
  let summary: Record<string, number> | void = undefined;
  try {
    summary = await job.run(ctx);
  } catch (error) {
    outcome = "failed";
    // Once the lease is gone, whatever the cut-short work threw (a rolled-back transaction, a
    // connection the database closed while the process was paused) is that loss's doing.
    if (!ctx.leaseSignal.aborted && !(isStop(error) && ctx.signal.aborted)) throw error;
    log.debug({ err: error }, "job run cut short");
  } finally {
    if (ctx.leaseSignal.aborted) outcome = "lease-lost";
    else if (shutdown.signal.aborted && outcome !== "failed") outcome = "stopped";
    end();
    guardedStop.dispose();
    guardedLease.dispose();
    log.debug(
      { fence: ctx.fence, outcome, ms: Date.now() - started, ...summary },
      "job run finished",
    );
  }
  if (summary && Object.values(summary).some((n) => n > 0))
    log.info({ fence: ctx.fence, ...summary }, "job ran");
  return outcome;
}

export class UnknownJobError extends Error {
  override name = "UnknownJobError";
  constructor(readonly job: string) {
    super(`unknown job: ${job}`);
  }
}
