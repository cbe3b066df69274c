import type { Database } from "./client.ts";

/** One update in the poller's keeping: its id and its JSON, as Telegram sent it. */
export interface ParkedUpdate {
  updateId: number;
  json: string;
}

/**
 * Updates a poller took over from Telegram: each failed and held back every later update, so it
 * is stored here before the offset moves past it, and retried from here until it is handled (or,
 * if it carries no money, given up on). Text, not jsonb: jsonb refuses some texts an update may
 * carry (a lone surrogate's escape), and a stored update must never be refused.
 */
export interface ParkedUpdates {
  /** Stores the updates; storing one twice is harmless. Resolves once they are committed. */
  park(botId: bigint, updates: readonly ParkedUpdate[]): Promise<void>;
  /** Every update stored for the bot, oldest first. */
  list(botId: bigint): Promise<ParkedUpdate[]>;
  /** Forgets an update: it was handled, or given up on. */
  remove(botId: bigint, updateId: number): Promise<void>;
}

export function createParkedUpdates(db: Database): ParkedUpdates {
  return {
    async park(botId, updates) {
      if (updates.length === 0) return;
      await db.parkedUpdate.createMany({
        data: updates.map((u) => ({ botId, updateId: BigInt(u.updateId), payload: u.json })),
        skipDuplicates: true,
      });
    },
    async list(botId) {
      const rows = await db.parkedUpdate.findMany({
        where: { botId },
        orderBy: { updateId: "asc" },
        select: { updateId: true, payload: true },
      });
      return rows.map((r) => ({ updateId: Number(r.updateId), json: r.payload }));
    },
    async remove(botId, updateId) {
      await db.parkedUpdate.deleteMany({ where: { botId, updateId: BigInt(updateId) } });
    },
  };
}
