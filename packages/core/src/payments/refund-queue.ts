import type { Tx } from "@orderbot/db";
import type { CoreDeps } from "../deps.ts";
import { recordEvent } from "../events/record.ts";
import { enqueueOutbox, type OutboxMessageInput } from "../outbox/messages.ts";
import { refundAlertKey } from "./pending-refunds.ts";

/** Why a payment is put up for refund instead of paying for its order. */
export type RefundReason =
  /** The order had expired or been cancelled, and its stock is gone. */
  | "late-out-of-stock"
  /** The order had expired or been cancelled, and its promo code's uses are all taken since. */
  | "late-promo-used-up"
  /** The order was already paid (two invoices, both paid). */
  | "already-paid"
  /** Paid an amount or currency other than the order's. */
  | "amount-mismatch"
  /** Paid by a user other than the order's owner (a forwarded invoice). */
  | "not-yours"
  /** The invoice names no order we know. */
  | "unknown-order"
  /** An operator refunded the paid order. */
  | "operator"
  /** A repeat of a payment already recorded for refund. */
  | "duplicate"
  /** A digital product's pool had fewer unused items than the order's quantity (delivery/). */
  | "pool-short";

/** Stars are refunded by the worker through refundStarPayment; other providers by operators. */
export const AUTO_REFUND_CURRENCY = "XTR";

export interface RefundSubject {
  telegramChargeId: string;
  userId: bigint;
  amountMinor: number;
  currency: string;
  /** Public id, when the payment names a known order. */
  orderId: string | null;
  /** Where the user hears about it: the order's chat, or the payer's private chat. */
  chatId: bigint;
}

/**
 * Queues, in the caller's transaction, everything a refund needs: the worker's refundStarPayment
 * call (Stars only), a notice to the user and an alert to operators. Each is deduplicated by the
 * charge id, so a replay queues nothing twice.
 */
export async function queueRefund(
  tx: Tx,
  deps: CoreDeps,
  subject: RefundSubject,
  reason: RefundReason,
): Promise<void> {
  const auto = subject.currency === AUTO_REFUND_CURRENCY;
  const messages: OutboxMessageInput[] = [
    {
      dedupeKey: `refund-notice:${subject.telegramChargeId}`,
      chatId: subject.chatId,
      method: "notify",
      payload: {
        template: reason === "operator" ? "order-refunded" : "payment-refunded",
        params: {
          orderId: subject.orderId ?? "",
          reason,
          amountMinor: subject.amountMinor,
          currency: subject.currency,
        },
      },
    },
  ];
  if (auto) {
    messages.push({
      dedupeKey: `refund:${subject.telegramChargeId}`,
      chatId: subject.userId,
      method: "refundStarPayment",
      payload: {
        user_id: Number(subject.userId),
        telegram_payment_charge_id: subject.telegramChargeId,
      },
    });
  }
  await enqueueOutbox(tx, messages);
  await recordEvent(
    tx,
    {
      kind: "refund.needed",
      orderId: subject.orderId ?? "",
      reason,
      amountMinor: subject.amountMinor,
      currency: subject.currency,
      telegramChargeId: subject.telegramChargeId,
      automatic: auto ? 1 : 0,
    },
    { dedupeKey: refundAlertKey(subject.telegramChargeId) },
    deps.config.fallbackOperatorChatId,
  );
  deps.metrics.refunds.inc({ reason: reason.replace(/-/g, "_") });
}
