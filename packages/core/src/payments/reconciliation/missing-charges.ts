import { runTransaction } from "@orderbot/db";
import type { CoreDeps } from "../../deps.ts";
import type { createConfirmPayment } from "../confirm-payment.ts";
import { STARS } from "../pending-refunds.ts";
import { queueRefund } from "../refund-queue.ts";
import type { createRecordTelegramRefund } from "../telegram-refund.ts";
import { insertFinding } from "./findings.ts";
import { recordLateCharge, type UnknownCharge } from "./late-charge.ts";
import { INVOICE_PARTNER } from "./ledger.ts";

export interface ChargeActions {
  recordTelegramRefund: ReturnType<typeof createRecordTelegramRefund>;
  confirmPayment: ReturnType<typeof createConfirmPayment>;
}

type MissingCharge = UnknownCharge & { refunded: boolean };

/**
 * Charges Telegram has, older than `settled`, that the payments table does not: each is recorded
 * once and becomes a "charge-missing" finding. Refunded in Telegram already: recorded as refunded.
 * Its payload names an order: recorded against it as its successful_payment would be
 * (late-charge.ts). Otherwise: an order-less REFUND_PENDING row and its refund, in one transaction,
 * the unique charge id deciding a race with the bot. Returns the new findings.
 */
export async function recordMissingCharges(
  deps: CoreDeps,
  actions: ChargeActions,
  options: { botId: bigint; settled: Date; batchSize?: number; leaseSignal?: AbortSignal },
): Promise<number> {
  const missing = await deps.db.$queryRaw<MissingCharge[]>`
    SELECT t.transaction_id AS id, t.user_id, t.amount, t.invoice_payload AS payload,
           EXISTS (SELECT 1 FROM star_transactions r
                    WHERE r.bot_id = t.bot_id AND r.direction = 'out'
                      AND r.transaction_id = t.transaction_id) AS refunded
      FROM star_transactions t
     WHERE t.bot_id = ${options.botId} AND t.direction = 'in' AND t.partner = ${INVOICE_PARTNER}
       AND t.user_id IS NOT NULL AND t.occurred_at < ${options.settled}::timestamp
       AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.telegram_charge_id = t.transaction_id)
     ORDER BY t.occurred_at LIMIT ${options.batchSize ?? 100}`;
  let found = 0;
  for (const charge of missing) {
    if (options.leaseSignal?.aborted) break;
    found += await recordOne(deps, actions, charge, options.leaseSignal);
  }
  return found;
}

async function recordOne(
  deps: CoreDeps,
  actions: ChargeActions,
  charge: MissingCharge,
  leaseSignal: AbortSignal | undefined,
): Promise<number> {
  const payload = charge.payload;
  if (charge.refunded) {
    // Telegram gave the money back already: the row is recorded as refunded, nothing is owed.
    const recorded = await actions.recordTelegramRefund({
      telegramChargeId: charge.id,
      userId: charge.user_id,
      amount: charge.amount,
      currency: STARS,
    });
    if (recorded.status !== "unknown-charge") return 0;
    return insertFinding(deps.db, "charge-missing", charge, { payload, refundedInTelegram: true });
  }
  const late = await recordLateCharge(deps, actions.confirmPayment, charge);
  if (late.status === "duplicate") return 0;
  if (late.status === "recorded")
    // Operators hear of it: the bot missed an update for this long (a webhook down, say).
    return insertFinding(deps.db, "charge-missing", charge, {
      payload,
      orderId: late.orderId,
      outcome: late.outcome,
    });
  return runTransaction(
    deps.db,
    async (tx) => {
      const inserted = await tx.$executeRaw`
        INSERT INTO payments (order_id, user_id, telegram_charge_id, amount_minor, currency, status, created_at)
        VALUES (NULL, ${charge.user_id}, ${charge.id}, ${charge.amount}, ${STARS}, 'REFUND_PENDING', ${deps.clock.now()}::timestamp)
        ON CONFLICT (telegram_charge_id) DO NOTHING`;
      // The bot recorded it meanwhile: not missing after all.
      if (inserted !== 1) return 0;
      const subject = {
        telegramChargeId: charge.id,
        userId: charge.user_id,
        amountMinor: charge.amount,
        currency: STARS,
        orderId: null,
      };
      await queueRefund(tx, deps, subject, "unknown-order");
      return insertFinding(tx, "charge-missing", charge, { payload });
    },
    leaseSignal ? { signal: leaseSignal } : {},
  );
}
