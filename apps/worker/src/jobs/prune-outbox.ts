import { pruneDeliveredEvents, pruneSentOutbox } from "@orderbot/core/outbox";
import type { Database } from "@orderbot/db";
import type { Job } from "./job.ts";

/**
 * prune-outbox: deletes sent outbox messages, and events whose deliveries were all sent, older
 * than `keepMs`, in batches, checking `signal` between them. Without it every notification ever
 * sent stays in the tables. Dead letters stay: see `pruneSentOutbox`.
 */
export function pruneOutboxJob(deps: {
  db: Database;
  keepMs: number;
  intervalMs: number;
  batchSize?: number;
}): Job {
  const batchSize = deps.batchSize ?? 5000;
  return {
    name: "prune-outbox",
    intervalMs: deps.intervalMs,
    async run({ signal }) {
      let deleted = 0;
      let events = 0;
      while (!signal.aborted) {
        const batch = await pruneSentOutbox(deps.db, deps.keepMs, batchSize);
        deleted += batch;
        if (batch < batchSize) break;
      }
      while (!signal.aborted) {
        const batch = await pruneDeliveredEvents(deps.db, deps.keepMs, batchSize);
        events += batch;
        if (batch < batchSize) break;
      }
      return { deleted, events };
    },
  };
}
