// One run of a job's body under its lease's signals: the context the job sees, its log lines and
// metrics, and the outcome, with a stop the lease or the shutdown caused told apart from a failure.
import { TransactionAbortedError } from "@orderbot/db";
import { LeaseLostError } from "@orderbot/lock";
import type { Logger } from "@orderbot/platform";
import type { Job, JobContext } from "./job.ts";
import { LeaseDeadlinePassedError, leaseGuardedSignal } from "./lease-signal.ts";
import type { WorkerMetrics } from "../metrics.ts";

export type TickOutcome = "ran" | "not-leader" | "paused" | "failed" | "lease-lost" | "stopped";

type HeldLease = { fence: number; expiresAt: number; abortsAt: number; acquiredAt: number };

/** One tick of a job: its log, its lease (null: not exclusive) and the lease's signal. */
export interface Run {
  job: Job;
  runId: string;
  log: Logger;
  lease: HeldLease | null;
  leaseSignal: AbortSignal;
}

/** What a run needs of its runner: the shutdown and the metrics. */
interface RunScope {
  shutdown: AbortController;
  deps: { metrics: WorkerMetrics };
}

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

/** One run of the job's body. Throws what the job threw, unless it only reports the stop. */
export async function runBody(runner: RunScope, run: Run, firstRun: boolean): Promise<TickOutcome> {
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
