import type { Tx } from "@orderbot/db";
import type { CoreDeps } from "../deps.ts";
import { recordEvent } from "../events/record.ts";
import type { ShopEvent } from "../events/kinds.ts";
import { enqueueOutbox } from "../outbox/messages.ts";
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
  // The refund call stays an outbox command: one addressee, settled with the payment.
  if (auto)
    await enqueueOutbox(tx, [
      {
        dedupeKey: `refund:${subject.telegramChargeId}`,
        chatId: subject.userId,
        method: "refundStarPayment",
        payload: {
          user_id: Number(subject.userId),
          telegram_payment_charge_id: subject.telegramChargeId,
        },
      },
    ]);
  // The payer is told by the recipient rule's customer branch: the order's chat, or their own.
  const notice = {
    dedupeKey: `customer-refund:${subject.telegramChargeId}`,
    deliveryKey: `refund-notice:${subject.telegramChargeId}`,
  };
  await recordEvent(tx, customerNotice(subject, reason), notice, undefined);
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

/** What the payer is told: an operator refunded their order, or their payment was not applied. */
function customerNotice(subject: RefundSubject, reason: RefundReason): ShopEvent {
  const facts = {
    orderId: subject.orderId ?? "",
    amountMinor: subject.amountMinor,
    currency: subject.currency,
    telegramChargeId: subject.telegramChargeId,
  };
  return reason === "operator"
    ? { kind: "order.refunded", ...facts }
    : { kind: "payment.rejected", ...facts, reason };
}
