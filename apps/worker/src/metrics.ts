import { Counter, Histogram, type Registry } from "prom-client";

export interface WorkerMetrics {
  jobRuns: Counter<"job" | "outcome">;
  jobSeconds: Histogram<"job">;
}

export function createWorkerMetrics(registry: Registry): WorkerMetrics {
  return {
    jobRuns: new Counter({
      name: "orderbot_job_runs_total",
      help: "Job ticks by outcome: ran, not_leader, paused (Redis down), lease_lost, failed",
      labelNames: ["job", "outcome"],
      registers: [registry],
    }),
    jobSeconds: new Histogram({
      name: "orderbot_job_duration_seconds",
      help: "Time one job tick took, including waiting for its lock",
      labelNames: ["job"],
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300],
      registers: [registry],
    }),
  };
}
