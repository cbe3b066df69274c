import type { WorkerMetrics } from "../metrics.ts";
import type { Job } from "./job.ts";

/** core's `expireDue`, as the job calls it: one batch per call, so the job decides between batches. */
export type ExpireDue = (
  now: Date,
  batchSize: number,
  options: { signal?: AbortSignal; maxBatches?: number },
) => Promise<{ expired: number; releasedUnits: number; notified: number; batches: number }>;

export interface ExpireJobDeps {
  expireDue: ExpireDue;
  metrics: WorkerMetrics;
  intervalMs: number;
  batchSize: number;
  /** leader: one worker at a time (the `job` lock); shared: every worker, kept apart by SKIP LOCKED. */
  mode: "leader" | "shared";
  clock?: () => Date;
}

/**
 * expire-reservations: releases due reservations batch after batch until none is due. Each batch
 * is one short transaction in core (claimed with FOR UPDATE SKIP LOCKED, stock returned through
 * the ledger's unique RELEASE rows, the user told through the outbox).
 *
 * Between batches it checks `signal` (lease lost or shutdown) and stops. Each batch's transaction
 * gets `leaseSignal`: a lease lost mid-batch rolls that batch back, while a shutdown lets it commit.
 */
export function expireReservationsJob(deps: ExpireJobDeps): Job {
  const clock = deps.clock ?? (() => new Date());
  return {
    name: "expire-reservations",
    intervalMs: deps.intervalMs,
    exclusive: deps.mode === "leader",
    async run({ signal, leaseSignal }) {
      const now = clock();
      const total = { expired: 0, releasedUnits: 0, batches: 0 };
      try {
        while (!signal.aborted) {
          const batch = await deps.expireDue(now, deps.batchSize, {
            signal: leaseSignal,
            maxBatches: 1,
          });
          total.batches += batch.batches;
          total.expired += batch.expired;
          total.releasedUnits += batch.releasedUnits;
          if (batch.expired > 0) deps.metrics.ordersExpired.inc(batch.expired);
          if (batch.expired < deps.batchSize) break;
        }
      } finally {
        deps.metrics.expiredPerRun.observe(total.expired);
      }
      return total;
    },
  };
}
