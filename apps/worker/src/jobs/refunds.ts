import { runTransaction, type Database } from "@orderbot/db";
import { recordEvent } from "@orderbot/core/events";
import { enqueueOutbox, type OutboxMessageInput } from "@orderbot/core/outbox";
import {
  manualRefundsNotAlerted,
  refundAlertKey,
  starRefundKey,
  starRefundsWithoutCall,
} from "@orderbot/core/payments";
import type { Job } from "./job.ts";

/**
 * refunds: makes sure every REFUND_PENDING payment is on its way back.
 *
 * - Stars: the refund is a `refundStarPayment` outbox message, which core queues with the payment
 *   and the relay sends; on Telegram's confirmation the relay marks the payment REFUNDED (a
 *   conditional update, in the transaction that marks the message sent). This job queues the call
 *   for any Stars refund that has none (dedupe key `refund:<charge>`, so never twice).
 * - Other currencies: the provider refunds them, by hand. Operators hear of it by one
 *   `refund.needed` event per payment (key `refund-alert:<charge>`, the key core uses itself).
 */
export function refundsJob(deps: {
  db: Database;
  /** OPERATOR_GROUP_ID, for the count of chats alerted. */
  fallbackChat: bigint | undefined;
  intervalMs: number;
  batchSize?: number;
}): Job {
  const limit = deps.batchSize ?? 100;
  return {
    name: "refunds",
    intervalMs: deps.intervalMs,
    async run({ signal }) {
      let queued = 0;
      let alerted = 0;
      for (;;) {
        if (signal.aborted) break;
        const missing = await starRefundsWithoutCall(deps.db, limit);
        const entries: OutboxMessageInput[] = missing.map((r) => ({
          dedupeKey: starRefundKey(r.telegramChargeId),
          chatId: r.userId,
          method: "refundStarPayment",
          payload: { user_id: Number(r.userId), telegram_payment_charge_id: r.telegramChargeId },
        }));
        queued += await enqueueOutbox(deps.db, entries);
        if (missing.length < limit) break;
      }
      while (!signal.aborted) {
        const manual = await manualRefundsNotAlerted(deps.db, limit);
        alerted += await runTransaction(deps.db, async (tx) => {
          let chats = 0;
          for (const r of manual) {
            const event = {
              kind: "refund.needed" as const,
              orderId: r.orderPublicId ?? "",
              amountMinor: r.amountMinor,
              currency: r.currency,
              telegramChargeId: r.telegramChargeId,
              automatic: 0 as const,
            };
            const keys = { dedupeKey: refundAlertKey(r.telegramChargeId) };
            chats += await recordEvent(tx, event, keys, deps.fallbackChat);
          }
          return chats;
        });
        if (manual.length < limit) break;
      }
      return { queued, alerted };
    },
  };
}
