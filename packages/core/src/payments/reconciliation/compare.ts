import { runTransaction } from "@orderbot/db";
import type { CoreDeps } from "../../deps.ts";
import { queueRefund } from "../refund-queue.ts";
import { STARS } from "../pending-refunds.ts";
import type { createRecordTelegramRefund } from "../telegram-refund.ts";
import type { FindingKind } from "./findings.ts";
import { INVOICE_PARTNER } from "./ledger.ts";

export interface CompareOptions {
  botId: bigint;
  /**
   * Differences younger than this are not findings yet: a successful_payment or refunded_payment
   * on its way to the bot, a refund call on its way to Telegram (ms).
   */
  graceMs: number;
  leaseSignal?: AbortSignal;
  /** Charges without a row handled per run at most. Default 100. */
  batchSize?: number;
}

export type CompareResult = Record<FindingKind, number>;

type RecordTelegramRefund = ReturnType<typeof createRecordTelegramRefund>;

/**
 * Compares what has been read of Telegram's list with the payments table and records every
 * difference as a finding. Each finding is an INSERT … ON CONFLICT DO NOTHING on the unique
 * (kind, charge) key, so comparing again, or on two workers at once, records nothing twice.
 *
 * - A charge without a row gets one (no order, REFUND_PENDING) and its refund is queued through
 *   the normal path (`queueRefund`: the `refund:<charge>` outbox call), in one transaction; the
 *   unique charge id decides a race with the bot recording the same charge.
 * - A refund Telegram made that the shop does not have is recorded as Telegram's refund would be
 *   (`recordTelegramRefund`, the refunded_payment path).
 * - "Telegram does not have it" needs Telegram's whole list up to the payment's time: only
 *   payments older than the last read that reached the end of the list (minus the grace) count.
 */
export async function compareLedger(
  deps: CoreDeps,
  recordTelegramRefund: RecordTelegramRefund,
  options: CompareOptions,
): Promise<CompareResult> {
  const { db } = deps;
  const bot = options.botId;
  const now = deps.clock.now();
  const settled = new Date(now.getTime() - options.graceMs);
  const result: CompareResult = {
    "charge-missing": 0,
    "payment-unknown-to-telegram": 0,
    "refund-only-in-telegram": 0,
    "refund-only-in-shop": 0,
    "amount-mismatch": 0,
  };

  // Charges Telegram has and the shop does not.
  const missing = await db.$queryRaw<
    { id: string; user_id: bigint; amount: number; payload: string | null; refunded: boolean }[]
  >`
    SELECT t.transaction_id AS id, t.user_id, t.amount, t.invoice_payload AS payload,
           EXISTS (SELECT 1 FROM star_transactions r
                    WHERE r.bot_id = t.bot_id AND r.direction = 'out'
                      AND r.transaction_id = t.transaction_id) AS refunded
      FROM star_transactions t
     WHERE t.bot_id = ${bot} AND t.direction = 'in' AND t.partner = ${INVOICE_PARTNER}
       AND t.user_id IS NOT NULL AND t.occurred_at < ${settled}::timestamp
       AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.telegram_charge_id = t.transaction_id)
     ORDER BY t.occurred_at LIMIT ${options.batchSize ?? 100}`;
  for (const charge of missing) {
    if (options.leaseSignal?.aborted) break;
    if (charge.refunded) {
      // Telegram gave the money back already: the row is recorded as refunded, nothing is owed.
      const recorded = await recordTelegramRefund({
        telegramChargeId: charge.id,
        userId: charge.user_id,
        amount: charge.amount,
        currency: STARS,
      });
      if (recorded.status === "unknown-charge")
        result["charge-missing"] += await insertFinding(db, "charge-missing", charge, {
          payload: charge.payload,
          refundedInTelegram: true,
        });
      continue;
    }
    result["charge-missing"] += await runTransaction(
      db,
      async (tx) => {
        const inserted = await tx.$executeRaw`
          INSERT INTO payments (order_id, user_id, telegram_charge_id, amount_minor, currency, status, created_at)
          VALUES (NULL, ${charge.user_id}, ${charge.id}, ${charge.amount}, ${STARS}, 'REFUND_PENDING', ${now}::timestamp)
          ON CONFLICT (telegram_charge_id) DO NOTHING`;
        // The bot recorded it meanwhile: not missing after all.
        if (inserted !== 1) return 0;
        await queueRefund(
          tx,
          deps,
          {
            telegramChargeId: charge.id,
            userId: charge.user_id,
            amountMinor: charge.amount,
            currency: STARS,
            orderId: null,
            chatId: charge.user_id,
          },
          "unknown-order",
        );
        return insertFinding(tx, "charge-missing", charge, { payload: charge.payload });
      },
      options.leaseSignal ? { signal: options.leaseSignal } : {},
    );
  }

  // Refunds Telegram made of payments the shop still has as captured.
  const refundedThere = await db.$queryRaw<{ id: string; user_id: bigint; amount: number }[]>`
    SELECT r.transaction_id AS id, p.user_id, r.amount
      FROM star_transactions r JOIN payments p ON p.telegram_charge_id = r.transaction_id
     WHERE r.bot_id = ${bot} AND r.direction = 'out' AND r.partner = ${INVOICE_PARTNER}
       AND p.status = 'CAPTURED' AND r.occurred_at < ${settled}::timestamp`;
  for (const refund of refundedThere) {
    if (options.leaseSignal?.aborted) break;
    const found = await insertFinding(db, "refund-only-in-telegram", refund, {});
    await recordTelegramRefund({
      telegramChargeId: refund.id,
      userId: refund.user_id,
      amount: refund.amount,
      currency: STARS,
    });
    result["refund-only-in-telegram"] += found;
  }

  result["amount-mismatch"] = await db.$executeRaw`
    INSERT INTO star_ledger_findings (kind, telegram_charge_id, user_id, telegram_amount, shop_amount, details)
    SELECT 'amount-mismatch', t.transaction_id, p.user_id, t.amount, p.amount_minor,
           jsonb_build_object('shopCurrency', p.currency)
      FROM star_transactions t JOIN payments p ON p.telegram_charge_id = t.transaction_id
     WHERE t.bot_id = ${bot} AND t.direction = 'in'
       AND (p.amount_minor <> t.amount OR p.currency <> ${STARS})
    ON CONFLICT DO NOTHING`;

  const [position] = await db.$queryRaw<{ read_to_end_at: Date | null }[]>`
    SELECT read_to_end_at FROM star_ledger_positions WHERE bot_id = ${bot}`;
  if (position?.read_to_end_at) {
    // Everything Telegram had before this instant has been read.
    const covered = new Date(position.read_to_end_at.getTime() - options.graceMs);
    result["payment-unknown-to-telegram"] = await db.$executeRaw`
      INSERT INTO star_ledger_findings (kind, telegram_charge_id, user_id, shop_amount, details)
      SELECT 'payment-unknown-to-telegram', p.telegram_charge_id, p.user_id, p.amount_minor,
             jsonb_build_object('status', p.status::text, 'orderId', o.public_id)
        FROM payments p LEFT JOIN orders o ON o.id = p.order_id
       WHERE p.currency = ${STARS} AND p.status IN ('CAPTURED', 'REFUNDED')
         AND p.created_at < ${covered}::timestamp
         AND NOT EXISTS (SELECT 1 FROM star_transactions t
                          WHERE t.bot_id = ${bot} AND t.direction = 'in'
                            AND t.transaction_id = p.telegram_charge_id)
      ON CONFLICT DO NOTHING`;
    result["refund-only-in-shop"] = await db.$executeRaw`
      INSERT INTO star_ledger_findings (kind, telegram_charge_id, user_id, telegram_amount, shop_amount, details)
      SELECT 'refund-only-in-shop', p.telegram_charge_id, p.user_id, t.amount, p.amount_minor,
             jsonb_build_object('refundedBy', p.refunded_by)
        FROM payments p
        JOIN star_transactions t ON t.bot_id = ${bot} AND t.direction = 'in'
                                AND t.transaction_id = p.telegram_charge_id
       WHERE p.currency = ${STARS} AND p.status = 'REFUNDED' AND p.refunded_at < ${covered}::timestamp
         AND NOT EXISTS (SELECT 1 FROM star_transactions r
                          WHERE r.bot_id = ${bot} AND r.direction = 'out'
                            AND r.transaction_id = p.telegram_charge_id)
      ON CONFLICT DO NOTHING`;
  }
  for (const [kind, count] of Object.entries(result))
    if (count > 0)
      deps.logger.warn({ kind, count }, "Stars ledger differs from the payments table");
  return result;
}

/** Records a finding once; 1 when it is new. The unique (kind, charge) key is the guard. */
async function insertFinding(
  sql: Pick<CoreDeps["db"], "$executeRaw">,
  kind: FindingKind,
  charge: { id: string; user_id: bigint; amount: number },
  details: Record<string, unknown>,
): Promise<number> {
  return sql.$executeRaw`
    INSERT INTO star_ledger_findings (kind, telegram_charge_id, user_id, telegram_amount, details)
    VALUES (${kind}, ${charge.id}, ${charge.user_id}, ${charge.amount}, ${JSON.stringify(details)}::jsonb)
    ON CONFLICT DO NOTHING`;
}
