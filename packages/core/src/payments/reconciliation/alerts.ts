import { runTransaction, type Database } from "@orderbot/db";
import { enqueueOutbox, type OutboxMessageInput } from "../../outbox/messages.ts";

/** Dedupe key of a finding's alert to one operator chat. */
export const findingAlertKey = (findingId: number, chatId: bigint): string =>
  `ledger-finding:${findingId}:${chatId}`;

/**
 * Queues one alert per new finding to every operator chat, and marks the findings alerted, in one
 * transaction. Rows are claimed FOR UPDATE SKIP LOCKED and each alert has a dedupe key per finding
 * and chat, so two workers at once, or a run after a crash, alert nobody twice. With no operator
 * chat yet, findings wait (unmarked) until one is bound. Returns the alerts queued.
 */
export async function alertNewFindings(
  db: Database,
  chats: readonly bigint[],
  options: { leaseSignal?: AbortSignal; now: Date; limit?: number },
): Promise<number> {
  if (chats.length === 0) return 0;
  return runTransaction(
    db,
    async (tx) => {
      const rows = await tx.$queryRaw<
        {
          id: number;
          kind: string;
          telegram_charge_id: string;
          telegram_amount: number | null;
          shop_amount: number | null;
        }[]
      >`
        SELECT id, kind, telegram_charge_id, telegram_amount, shop_amount
          FROM star_ledger_findings
         WHERE alerted_at IS NULL
         ORDER BY id LIMIT ${options.limit ?? 100}
           FOR UPDATE SKIP LOCKED`;
      if (rows.length === 0) return 0;
      const messages: OutboxMessageInput[] = rows.flatMap((f) =>
        chats.map((chatId) => ({
          dedupeKey: findingAlertKey(f.id, chatId),
          chatId,
          method: "notify" as const,
          payload: {
            template: "operator-ledger-finding" as const,
            params: {
              findingId: f.id,
              kind: f.kind,
              telegramChargeId: f.telegram_charge_id,
              telegramAmount: f.telegram_amount ?? "",
              shopAmount: f.shop_amount ?? "",
            },
          },
        })),
      );
      const queued = await enqueueOutbox(tx, messages);
      await tx.starLedgerFinding.updateMany({
        where: { id: { in: rows.map((f) => f.id) } },
        data: { alertedAt: options.now },
      });
      return queued;
    },
    options.leaseSignal ? { signal: options.leaseSignal } : {},
  );
}
