import type { Logger } from "@orderbot/platform";

export interface JobContext {
  /**
   * Aborts when this worker's leadership lease is lost or the worker is shutting down. A job
   * checks it between steps (batches) and stops: after a lost lease another worker may already be
   * running the job, and at shutdown the current batch is the last.
   */
  signal: AbortSignal;
  /**
   * Aborts only when the lease is lost. Pass it to the transaction of a step, so a step that
   * outlived the lease rolls back instead of committing (shutdown lets the step finish instead).
   */
  leaseSignal: AbortSignal;
  /** The lease's fencing number: strictly larger for every new leader of this job. Null for shared jobs. */
  fence: number | null;
  /** True for the first run under a lease (a new leadership term), and for every run of a shared job. */
  firstRun: boolean;
  /** This tick's id (`job:<name>:<hex>`): pass it as `requestId` to any lock the job takes itself. */
  runId: string;
  logger: Logger;
}

export interface Job {
  /** Also the lock id: `job:<name>`. */
  name: string;
  /** Time between runs (ms); each wait is jittered by up to ±jitter of it. */
  intervalMs: number;
  /** 0..1, default 0.2: spreads the workers' attempts so they do not contend on every tick. */
  jitter?: number;
  /**
   * true (default): one worker at a time runs it, under the `job` lock. false: every worker runs
   * it; only for work whose database statements keep parallel runs apart on their own.
   */
  exclusive?: boolean;
  /**
   * Keep the lease between runs (exclusive jobs): the leader runs the job every interval until it
   * loses the lease, stops, or a run fails. For jobs whose state lives in the leader's memory (the
   * relay's pacing). Default false: the lock is released after each run and the next tick is open
   * to every worker.
   */
  keepLeadership?: boolean;
  /** Runs one pass. Returns a small summary for the log and metrics, e.g. { expired: 120 }. */
  run(ctx: JobContext): Promise<Record<string, number> | void>;
}

/** The wait before a job's next run: its interval, jittered by up to ±jitter of it. */
export function jitteredInterval(job: Job): number {
  const jitter = job.jitter ?? 0.2;
  return job.intervalMs * (1 - jitter + Math.random() * 2 * jitter);
}
