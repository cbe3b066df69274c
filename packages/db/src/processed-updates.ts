import type { Database } from "./client.ts";

/**
 * The record of Telegram updates fully handled, per bot. Telegram re-delivers an update whose
 * webhook request failed; a re-delivery of a recorded update is skipped. This is the database
 * half of update dedupe; the Redis `update` lock only keeps two replicas from running the same
 * update at the same moment.
 */
export interface ProcessedUpdates {
  has(botId: bigint, updateId: number): Promise<boolean>;
  /** Records the update; recording it twice is harmless. */
  mark(botId: bigint, updateId: number): Promise<void>;
}

export function createProcessedUpdates(db: Database): ProcessedUpdates {
  return {
    async has(botId, updateId) {
      const row = await db.processedUpdate.findUnique({
        where: { botId_updateId: { botId, updateId: BigInt(updateId) } },
        select: { updateId: true },
      });
      return row !== null;
    },
    async mark(botId, updateId) {
      await db.processedUpdate.createMany({ data: [{ botId, updateId: BigInt(updateId) }], skipDuplicates: true });
    },
  };
}
