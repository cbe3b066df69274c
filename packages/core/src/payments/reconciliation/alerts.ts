import { runTransaction, type Database } from "@orderbot/db";
import { recordEvent } from "../../events/record.ts";

/** Delivery key of a finding's alert to one operator chat. */
export const findingAlertKey = (findingId: number, chatId: bigint): string =>
  `ledger-finding:${findingId}:${chatId}`;

/**
 * Records a `ledger.finding` event per new finding (the recipient rule tells the operator chats)
 * and marks the findings alerted, in one transaction. Rows are claimed FOR UPDATE SKIP LOCKED and
 * each event has a key per finding, so two workers at once, or a run after a crash, alert nobody
 * twice. With no operator chat yet (`chats`), findings wait (unmarked) until one is bound. Returns
 * the alerts the events make. `fallbackChat`: OPERATOR_GROUP_ID.
 */
export async function alertNewFindings(
  db: Database,
  chats: readonly bigint[],
  options: { leaseSignal?: AbortSignal; now: Date; limit?: number; fallbackChat?: bigint },
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
      let queued = 0;
      for (const f of rows) {
        const event = {
          kind: "ledger.finding",
          findingId: f.id,
          finding: f.kind,
          telegramChargeId: f.telegram_charge_id,
          ...(f.telegram_amount !== null ? { telegramAmount: f.telegram_amount } : {}),
          ...(f.shop_amount !== null ? { shopAmount: f.shop_amount } : {}),
        } as const;
        const keys = { dedupeKey: `ledger.finding:${f.id}`, deliveryKey: `ledger-finding:${f.id}` };
        queued += await recordEvent(tx, event, keys, options.fallbackChat);
      }
      await tx.starLedgerFinding.updateMany({
        where: { id: { in: rows.map((f) => f.id) } },
        data: { alertedAt: options.now },
      });
      return queued;
    },
    options.leaseSignal ? { signal: options.leaseSignal } : {},
  );
}
