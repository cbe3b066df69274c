import { TransactionAbortedError } from "@orderbot/db";
import { LeaseLostError, type LockManager } from "@orderbot/lock";
import type { Logger } from "@orderbot/platform";
import type { Job, JobContext } from "./job.ts";
import { LeaseDeadlinePassedError, leaseGuardedSignal } from "./lease-signal.ts";
import type { WorkerMetrics } from "../metrics.ts";

export interface JobRunnerDeps {
  locks: LockManager;
  jobs: readonly Job[];
  logger: Logger;
  metrics: WorkerMetrics;
  /** Lease of the job locks (ms); the `job` kind's default when unset. */
  lockTtlMs?: number;
}

export type TickOutcome = "ran" | "not-leader" | "paused" | "failed" | "lease-lost" | "stopped";

/** An error that only says the run was cut short by its lease or the shutdown. */
function isStop(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if (e instanceof LeaseLostError || e instanceof LeaseDeadlinePassedError || e instanceof TransactionAbortedError) return true;
  }
  return false;
}

/**
 * Runs each job on an interval with jitter. An exclusive job runs under
 * `withLock({ kind: "job", id: name })`: one worker (the leader of that tick) runs it while the
 * lock's watchdog renews the lease. A lost lease or a shutdown aborts the job's signal, and the job
 * stops at its next step. When Redis is down the `job` kind's policy is `skip`: the job pauses
 * until Redis is back. Every run logs its start and end with its fence ("job run started" /
 * "job run finished"), which is how overlapping leaders would show.
 */
export function createJobRunner(deps: JobRunnerDeps) {
  const { locks, logger, metrics } = deps;
  const shutdown = new AbortController();
  const timers = new Set<NodeJS.Timeout>();
  const running = new Set<Promise<TickOutcome>>();
  const ttlMs = deps.lockTtlMs;

  type HeldLease = { fence: number; expiresAt: number; acquiredAt: number };

  async function runBody(job: Job, log: Logger, lease: HeldLease | null, leaseSignal: AbortSignal): Promise<TickOutcome> {
    // The lock module's own safety margin (ttl/10 + 5 ms): the clock check agrees with its timer.
    const margin = lease ? Math.ceil((lease.expiresAt - lease.acquiredAt) / 10) + 5 : 0;
    const guardedLease = leaseGuardedSignal([leaseSignal], lease, margin);
    const ctx: JobContext = {
      leaseSignal: guardedLease,
      signal: leaseGuardedSignal([guardedLease, shutdown.signal], lease, margin),
      fence: lease?.fence ?? null,
      logger: log,
    };
    const started = Date.now();
    log.debug({ fence: ctx.fence }, "job run started");
    let outcome: TickOutcome = "ran";
    let summary: Record<string, number> | void = undefined;
    try {
      summary = await job.run(ctx);
    } catch (error) {
      if (!(isStop(error) && ctx.signal.aborted)) throw error;
    } finally {
      if (ctx.leaseSignal.aborted) outcome = "lease-lost";
      else if (shutdown.signal.aborted) outcome = "stopped";
      log.debug({ fence: ctx.fence, outcome, ms: Date.now() - started, ...summary }, "job run finished");
    }
    if (summary && Object.values(summary).some((n) => n > 0)) log.info({ fence: ctx.fence, ...summary }, "job ran");
    return outcome;
  }

  async function tick(job: Job): Promise<TickOutcome> {
    const log = logger.child({ job: job.name });
    const end = metrics.jobSeconds.startTimer({ job: job.name });
    let result: TickOutcome;
    try {
      if (job.exclusive === false) {
        result = await runBody(job, log, null, new AbortController().signal);
      } else {
        const outcome = await locks.withLock(
          { kind: "job", id: job.name },
          ({ lease, signal }) => runBody(job, log, lease, signal),
          ttlMs ? { ttlMs } : {},
        );
        result = outcome.status === "ok" ? outcome.value : outcome.status === "busy" ? "not-leader" : "paused";
      }
    } catch (error) {
      log.error({ err: error }, "job failed");
      result = "failed";
    } finally {
      end();
    }
    if (result === "lease-lost") {
      metrics.jobLeaseLost.inc({ job: job.name });
      log.warn("lease lost while the job ran; it stopped at its next step");
    }
    metrics.jobRuns.inc({ job: job.name, outcome: result.replace("-", "_") });
    return result;
  }

  function schedule(job: Job): void {
    if (shutdown.signal.aborted) return;
    const jitter = job.jitter ?? 0.2;
    const delay = job.intervalMs * (1 - jitter + Math.random() * 2 * jitter);
    const timer = setTimeout(() => {
      timers.delete(timer);
      const run = tick(job);
      running.add(run);
      void run.finally(() => {
        running.delete(run);
        schedule(job);
      });
    }, delay);
    timer.unref();
    timers.add(timer);
  }

  return {
    /** Runs one tick of a job now (tests, the demo, and a manual trigger). */
    runOnce(name: string): Promise<TickOutcome> {
      const job = deps.jobs.find((j) => j.name === name);
      if (!job) return Promise.reject(new UnknownJobError(name));
      const run = tick(job);
      running.add(run);
      void run.finally(() => running.delete(run));
      return run;
    },
    start(): void {
      for (const job of deps.jobs) schedule(job);
    },
    /** Stops scheduling, lets running jobs finish their current step, and waits for them. */
    async stop(): Promise<void> {
      shutdown.abort(new Error("worker shutting down"));
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.allSettled([...running]);
    },
  };
}

export class UnknownJobError extends Error {
  override name = "UnknownJobError";
  constructor(readonly job: string) {
    super(`unknown job: ${job}`);
  }
}

export type JobRunner = ReturnType<typeof createJobRunner>;
