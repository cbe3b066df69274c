import { Counter, Gauge, Histogram, type Registry } from "prom-client";

/** Metric names; the alert rules and the dashboard use these. */
export const WORKER_METRICS = {
  jobRuns: "orderbot_job_runs_total",
  jobSeconds: "orderbot_job_duration_seconds",
  jobLeaseLost: "orderbot_job_lease_lost_total",
  ordersExpired: "orderbot_orders_expired_total",
  expiredPerRun: "orderbot_orders_expired_per_run",
  outboxPending: "orderbot_outbox_pending",
  outboxOldestAge: "orderbot_outbox_oldest_pending_age_seconds",
  outboxSent: "orderbot_outbox_sent_total",
  outboxRetries: "orderbot_outbox_retries_total",
  outboxDead: "orderbot_outbox_dead_total",
  outboxClaimLost: "orderbot_outbox_claim_lost_total",
  refundsCompleted: "orderbot_refunds_completed_total",
  refundPendingOldestAge: "orderbot_refund_pending_oldest_age_seconds",
  unreconciledCharges: "orderbot_unreconciled_charges",
} as const;

export interface WorkerMetrics {
  jobRuns: Counter<"job" | "outcome">;
  jobSeconds: Histogram<"job">;
  jobLeaseLost: Counter<"job">;
  ordersExpired: Counter;
  expiredPerRun: Histogram;
  outboxSent: Counter<"method">;
  outboxRetries: Counter<"reason">;
  outboxDead: Counter<"method">;
  outboxClaimLost: Counter;
  refundsCompleted: Counter;
  outboxPending: Gauge;
  outboxOldestAge: Gauge;
  refundPendingOldestAge: Gauge;
  unreconciledCharges: Gauge;
}

/**
 * The worker's metrics. The backlog gauges are filled by `createBacklogCollector` at scrape
 * time from the database, so every replica reports the current figure, not the last leader's.
 */
export function createWorkerMetrics(registry: Registry): WorkerMetrics {
  const registers = [registry];
  // In this order on the registry: the jobs', the deliveries', then the backlog gauges.
  return { ...jobMetrics(registers), ...deliveryMetrics(registers), ...backlogGauges(registers) };
}

type Registers = Registry[];

/** Job ticks, their duration and lost leases, and what the expiry job expired. */
function jobMetrics(registers: Registers) {
  return {
    jobRuns: new Counter({
      name: WORKER_METRICS.jobRuns,
      help: "Job ticks by outcome: ran, not_leader, paused (Redis down), lease_lost, failed",
      labelNames: ["job", "outcome"],
      registers,
    }),
    jobSeconds: new Histogram({
      name: WORKER_METRICS.jobSeconds,
      help: "Time one job tick took, including waiting for its lock",
      labelNames: ["job"],
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300],
      registers,
    }),
    jobLeaseLost: new Counter({
      name: WORKER_METRICS.jobLeaseLost,
      help: "Job runs whose leader lease was lost while the job ran (it stopped at its next step)",
      labelNames: ["job"],
      registers,
    }),
    ordersExpired: new Counter({
      name: WORKER_METRICS.ordersExpired,
      help: "Reservations expired by this worker",
      registers,
    }),
    expiredPerRun: new Histogram({
      name: WORKER_METRICS.expiredPerRun,
      help: "Reservations expired by one run of the expiry job",
      buckets: [0, 1, 10, 100, 1000, 10_000, 100_000],
      registers,
    }),
  };
}

/** Outbox deliveries by how they were settled, and Stars refunds completed. */
function deliveryMetrics(registers: Registers) {
  return {
    outboxSent: new Counter({
      name: WORKER_METRICS.outboxSent,
      help: "Outbox messages delivered and marked sent",
      labelNames: ["method"],
      registers,
    }),
    outboxRetries: new Counter({
      name: WORKER_METRICS.outboxRetries,
      help: "Outbox deliveries put back for later, by reason: rate_limited (429), transient (5xx, network), unauthorized (401: the bot token was refused), paced, released",
      labelNames: ["reason"],
      registers,
    }),
    outboxDead: new Counter({
      name: WORKER_METRICS.outboxDead,
      help: "Outbox messages moved to the dead-letter state",
      labelNames: ["method"],
      registers,
    }),
    outboxClaimLost: new Counter({
      name: WORKER_METRICS.outboxClaimLost,
      help: "Outbox deliveries whose claim had passed to another relay when they were settled",
      registers,
    }),
    refundsCompleted: new Counter({
      name: WORKER_METRICS.refundsCompleted,
      help: "Stars payments refunded (REFUND_PENDING -> REFUNDED)",
      registers,
    }),
  };
}

/** Filled at scrape time from the database (createBacklogCollector). */
function backlogGauges(registers: Registers) {
  return {
    outboxPending: new Gauge({
      name: WORKER_METRICS.outboxPending,
      help: "Outbox messages waiting to be sent",
      registers,
    }),
    outboxOldestAge: new Gauge({
      name: WORKER_METRICS.outboxOldestAge,
      help: "Age of the oldest outbox message waiting to be sent (s)",
      registers,
    }),
    refundPendingOldestAge: new Gauge({
      name: WORKER_METRICS.refundPendingOldestAge,
      help: "Age of the oldest payment waiting for its refund (s)",
      registers,
    }),
    unreconciledCharges: new Gauge({
      name: WORKER_METRICS.unreconciledCharges,
      help: "Open findings of the Stars reconciliation: differences between Telegram's ledger and the payments table that no operator has resolved",
      registers,
    }),
  };
}
