import { LOCK_KINDS } from "@orderbot/core";
import type { LockManager } from "@orderbot/lock";
import type { Logger } from "@orderbot/platform";
import { jitteredInterval, type Job } from "./job.ts";
import { runAsLeader } from "./leadership.ts";
import { runBody, type TickOutcome } from "./run-body.ts";
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

export type { TickOutcome } from "./run-body.ts";

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
  }, jitteredInterval(job));
  timer.unref();
  runner.timers.add(timer);
}

async function tick(runner: Runner, job: Job, once = false): Promise<TickOutcome> {
  const { logger, metrics } = runner.deps;
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
      result = await inJobRun(runId, () => runAsLeader(runner, run, once));
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

export class UnknownJobError extends Error {
  override name = "UnknownJobError";
  constructor(readonly job: string) {
    super(`unknown job: ${job}`);
  }
}
