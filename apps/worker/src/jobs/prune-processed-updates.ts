import type { ProcessedUpdates } from "@orderbot/db";
import type { Job } from "./job.ts";

/** How long an update's record is kept: Telegram re-delivers an update for 24 hours at most. */
export const PROCESSED_UPDATES_KEEP_MS = 48 * 3_600_000;

/**
 * prune-processed-updates: deletes the bot's records of handled updates once Telegram can no
 * longer re-deliver them, in batches, checking `signal` between them. Without it the table grows
 * for ever, and after a week without updates Telegram may start update ids anew at random, which
 * an old record would mistake for one already handled.
 */
export function pruneProcessedUpdatesJob(deps: {
  processed: Pick<ProcessedUpdates, "prune">;
  intervalMs: number;
  batchSize?: number;
}): Job {
  const batchSize = deps.batchSize ?? 5000;
  return {
    name: "prune-processed-updates",
    intervalMs: deps.intervalMs,
    async run({ signal }) {
      let deleted = 0;
      while (!signal.aborted) {
        const batch = await deps.processed.prune(PROCESSED_UPDATES_KEEP_MS, batchSize);
        deleted += batch;
        if (batch < batchSize) break;
      }
      return { deleted };
    },
  };
}
