import type { LockManager } from "@orderbot/lock";
import type { Logger } from "@orderbot/platform";
import type { Job } from "./job.ts";
import type { WorkerMetrics } from "../metrics.ts";

export interface JobRunnerDeps {
  locks: LockManager;
  jobs: readonly Job[];
  logger: Logger;
  metrics: WorkerMetrics;
}

export type TickOutcome = "ran" | "not-leader" | "paused" | "failed" | "lease-lost";

/**
 * Runs each job on an interval with jitter, under `withLock({ kind: "job", id: name })`: one
 * worker (the leader of that tick) runs it while the lock's watchdog renews the lease. A lost
 * lease or a shutdown aborts the job's signal, and the job stops at its next step. When Redis is
 * down the `job` kind's policy is `skip`: the job pauses until Redis is back.
 */
export function createJobRunner(deps: JobRunnerDeps) {
  const { locks, logger, metrics } = deps;
  const shutdown = new AbortController();
  const timers = new Set<NodeJS.Timeout>();
  const running = new Set<Promise<TickOutcome>>();

  async function tick(job: Job): Promise<TickOutcome> {
    const log = logger.child({ job: job.name });
    const end = metrics.jobSeconds.startTimer({ job: job.name });
    try {
      const outcome = await locks.withLock({ kind: "job", id: job.name }, async ({ lease, signal }) => {
        const stop = AbortSignal.any([signal, shutdown.signal]);
        const summary = await job.run({ signal: stop, fence: lease?.fence ?? null, logger: log });
        if (signal.aborted) return "lease-lost" as const;
        if (summary && Object.values(summary).some((n) => n > 0)) log.info(summary, "job ran");
        return "ran" as const;
      });
      const result: TickOutcome =
        outcome.status === "ok" ? outcome.value : outcome.status === "busy" ? "not-leader" : "paused";
      if (result === "lease-lost") log.warn("lease lost while the job ran; it stopped at its next step");
      metrics.jobRuns.inc({ job: job.name, outcome: result.replace("-", "_") });
      return result;
    } catch (error) {
      log.error({ err: error }, "job failed");
      metrics.jobRuns.inc({ job: job.name, outcome: "failed" });
      return "failed";
    } finally {
      end();
    }
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
      if (!job) throw new Error(`unknown job: ${name}`);
      return tick(job);
    },
    start(): void {
      for (const job of deps.jobs) schedule(job);
    },
    /** Stops scheduling, lets running jobs finish their current batch, and waits for them. */
    async stop(): Promise<void> {
      shutdown.abort(new Error("worker shutting down"));
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.allSettled([...running]);
    },
  };
}

export type JobRunner = ReturnType<typeof createJobRunner>;
