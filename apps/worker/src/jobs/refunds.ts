import type { Database } from "@orderbot/db";
import { enqueueOutbox, type OutboxMessageInput } from "@orderbot/core/outbox";
import {
  manualRefundsNotAlerted,
  refundAlertKey,
  starRefundKey,
  starRefundsWithoutCall,
} from "@orderbot/core/payments";
import type { OperatorChats } from "../operators/chats.ts";
import type { Job } from "./job.ts";

/**
 * refunds: makes sure every REFUND_PENDING payment is on its way back.
 *
 * - Stars: the refund is a `refundStarPayment` outbox message, which core queues with the payment
 *   and the relay sends; on Telegram's confirmation the relay marks the payment REFUNDED (a
 *   conditional update, in the transaction that marks the message sent). This job queues the call
 *   for any Stars refund that has none (dedupe key `refund:<charge>`, so never twice).
 * - Other currencies: the provider refunds them, by hand. Operators get one alert per payment
 *   (dedupe key `refund-alert:<charge>:<chat>`, the key core uses when it alerts them itself).
 */
export function refundsJob(deps: {
  db: Database;
  operatorChats: OperatorChats;
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
      const chats = await deps.operatorChats();
      while (chats.length > 0 && !signal.aborted) {
        const manual = await manualRefundsNotAlerted(deps.db, limit);
        const alerts: OutboxMessageInput[] = manual.flatMap((r) =>
          chats.map((chatId) => ({
            dedupeKey: refundAlertKey(r.telegramChargeId, chatId),
            chatId,
            method: "notify",
            payload: {
              template: "operator-refund-needed",
              params: {
                orderId: r.orderPublicId ?? "",
                amountMinor: r.amountMinor,
                currency: r.currency,
                telegramChargeId: r.telegramChargeId,
                automatic: 0,
              },
            },
          })),
        );
        alerted += await enqueueOutbox(deps.db, alerts);
        if (manual.length < limit) break;
      }
      return { queued, alerted };
    },
  };
}
