import type { Database } from "@orderbot/db";
import type { Logger } from "@orderbot/platform";
import { outboxStats } from "@orderbot/core/outbox";
import { oldestRefundPendingAgeSeconds, openFindingCount } from "@orderbot/core/payments";
import type { WorkerMetrics } from "./metrics.ts";

/**
 * Fills the backlog gauges from the database, called before each scrape: every replica reports
 * the same current figures, whichever of them leads the jobs. A failed read keeps the last values
 * (and is logged); the scrape itself still answers.
 */
export function createBacklogCollector(deps: {
  db: Database;
  metrics: WorkerMetrics;
  logger: Logger;
}) {
  return async function refreshBacklog(): Promise<void> {
    try {
      const [outbox, refundAge, unreconciled] = await Promise.all([
        outboxStats(deps.db),
        oldestRefundPendingAgeSeconds(deps.db),
        openFindingCount(deps.db),
      ]);
      deps.metrics.outboxPending.set(outbox.pending);
      deps.metrics.outboxOldestAge.set(outbox.oldestPendingAgeSeconds);
      deps.metrics.refundPendingOldestAge.set(refundAge);
      deps.metrics.unreconciledCharges.set(unreconciled);
    } catch (error) {
      deps.logger.warn(
        { err: error instanceof Error ? error.message : String(error) },
        "backlog metrics not refreshed",
      );
    }
  };
}
