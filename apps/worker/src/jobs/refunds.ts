import { runTransaction, type Database, type Tx } from "@orderbot/db";
import { recordEvent, reopenUnheard } from "@orderbot/core/events";
import { enqueueOutbox, type OutboxMessageInput } from "@orderbot/core/outbox";
import {
  manualRefundsNotAlerted,
  refundAlertKey,
  type PendingRefund,
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
      const alerted = await alertManualRefunds(deps, limit, signal);
      return { queued, alerted };
    },
  };
}

/**
 * Operators told of each refund by hand: its `refund.needed` event recorded, or, when it found
 * nobody to tell (no group bound then), expanded again now that someone would hear. Returns how
 * many chats will hear.
 */
async function alertManualRefunds(
  deps: { db: Database; fallbackChat: bigint | undefined },
  limit: number,
  signal: AbortSignal,
): Promise<number> {
  let alerted = 0;
  while (!signal.aborted) {
    const manual = await manualRefundsNotAlerted(deps.db, limit);
    const recorded = await runTransaction(deps.db, (tx) =>
      recordAll(tx, manual, deps.fallbackChat),
    );
    const keys = manual.map((r) => refundAlertKey(r.telegramChargeId));
    const reopened = await reopenUnheard(deps.db, keys, deps.fallbackChat);
    alerted += recorded + reopened;
    // Nobody to tell yet: the same payments would come back at once.
    if (manual.length < limit || recorded + reopened === 0) break;
  }
  return alerted;
}

async function recordAll(
  tx: Tx,
  manual: readonly PendingRefund[],
  fallbackChat: bigint | undefined,
): Promise<number> {
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
    chats += await recordEvent(
      tx,
      event,
      { dedupeKey: refundAlertKey(r.telegramChargeId) },
      fallbackChat,
    );
  }
  return chats;
}
