// @orderbot/worker as a library: build a worker in-process (tests, the demo, benchmarks).
export { createWorker, type Worker, type WorkerDeps, type WorkerSettings } from "./worker.ts";
export { createWorkerRuntime, runtimeDeps } from "./runtime.ts";
export {
  workerConfigSchema,
  parseWorkerConfig,
  loadWorkerConfig,
  type WorkerConfig,
} from "./config.ts";
export { createWorkerMetrics, WORKER_METRICS, type WorkerMetrics } from "./metrics.ts";
export {
  createJobRunner,
  UnknownJobError,
  type JobRunner,
  type TickOutcome,
} from "./jobs/runner.ts";
export type { Job, JobContext } from "./jobs/job.ts";
export { createPacer, TELEGRAM_LIMITS, type Pacer, type PacingLimits } from "./outbox/pacer.ts";
export {
  decide,
  backoffMs,
  type RetryPolicy,
  type SendResult,
  type Decision,
} from "./outbox/retry.ts";
