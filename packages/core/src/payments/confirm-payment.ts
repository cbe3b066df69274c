import { TransactionAbortedError, type OrderStatus } from "@orderbot/db";
import { z } from "zod";
import type { CoreDeps } from "../deps.ts";
import { publicIdSchema } from "../orders/public-id-schema.ts";
import { invalid, type Invalid } from "../results.ts";
import { currencySchema, parseWith, telegramId } from "../validation.ts";
import type { OrderView, PaymentView } from "../views.ts";
import type { RefundReason } from "./refund-queue.ts";
import { orderInfoSchema, type OrderInfo } from "../shipping/order-info.ts";
import { recordPayment } from "./record-payment.ts";

export interface ConfirmPaymentInput {
  /** The order's public id, from the invoice payload. */
  orderId: string;
  userId: bigint | number | string;
  telegramChargeId: string;
  providerChargeId?: string | null;
  /** Telegram's total_amount, in minor units, and its currency. */
  amount: number;
  currency: string;
  /**
   * How operators know the payer: their Telegram name and @username, shown in the paid-order
   * notice (the id stays masked). Absent: the masked id only.
   */
  customer?: { name: string; username?: string | undefined };
  /**
   * A physical order's: successful_payment.shipping_option_id and order_info. The amount must be
   * the goods plus that option's configured price (else refunded as an amount mismatch).
   */
  shippingOptionId?: string | undefined;
  orderInfo?: OrderInfo | undefined;
}

export type ConfirmPaymentResult =
  /** The order is paid by this payment (`duplicate`: this charge was recorded before). */
  | {
      status: "ok";
      order: OrderView;
      payment: PaymentView;
      duplicate: boolean;
      rereserved: boolean;
      /** This call assigned a digital order's codes and queued their message (delivery/). */
      codesSent: boolean;
    }
  /** Money was taken but cannot pay for the order: recorded as REFUND_PENDING, refund queued. */
  | {
      status: "refund-pending";
      reason: RefundReason;
      order: OrderView | null;
      payment: PaymentView | null;
      duplicate: boolean;
    }
  | Invalid;

const inputSchema = z.object({
  orderId: z.string().trim().min(1).max(128),
  userId: telegramId,
  telegramChargeId: z.string().min(1).max(256),
  providerChargeId: z.string().max(256).nullish(),
  amount: z.number().int().positive(),
  currency: currencySchema,
  customer: z
    .object({
      name: z.string().trim().min(1).max(128),
      username: z
        .string()
        .regex(/^[A-Za-z0-9_]{1,32}$/)
        .optional(),
    })
    .optional()
    // Only words for a notice: a payment is never refused over them (it is recorded regardless).
    .catch(undefined),
  shippingOptionId: z.string().min(1).max(64).optional().catch(undefined),
  // Stored as sent; a malformed one is dropped rather than losing the payment over it.
  orderInfo: orderInfoSchema.optional().catch(undefined),
});
export type Input = z.output<typeof inputSchema>;

/** The order row a payment locks FOR UPDATE. */
export interface LockedOrder {
  id: number;
  publicId: string;
  status: OrderStatus;
  version: number;
  userId: bigint;
  chatId: bigint;
  totalMinor: number;
  currency: string;
}

/**
 * Records a successful payment exactly once and applies it to its order. Money already taken is
 * never dropped: the `order` lock is used when it can be had, but a busy lock, a lost lease or
 * Redis being down all fall through to the same transaction run on database guarantees alone —
 * the order row locked FOR UPDATE, transitions conditional, the charge id unique.
 *
 * - RESERVED/PAYING → PAID, payment CAPTURED.
 * - EXPIRED/CANCELLED → re-reserve (ledger RERESERVE) if every item is in stock → PAID;
 *   otherwise the payment is REFUND_PENDING, with the refund and an operator alert queued.
 * - Already paid (a second invoice paid too), wrong amount, another user's order, or an unknown
 *   order (the payment then has no order) → REFUND_PENDING the same way.
 * - The same charge id again → the first outcome, `duplicate: true`, nothing written.
 */
export function createConfirmPayment(deps: CoreDeps) {
  return async function confirmPayment(raw: ConfirmPaymentInput): Promise<ConfirmPaymentResult> {
    const parsed = parseWith(inputSchema, raw);
    if (!parsed.ok) {
      deps.logger.error(
        { problems: parsed.problems },
        "successful payment with invalid fields: not recorded",
      );
      return invalid(parsed.problems);
    }
    const input = parsed.value;
    const result = await confirmWithLock(deps, input);
    const outcome =
      result.status === "invalid"
        ? "invalid"
        : result.duplicate
          ? "duplicate"
          : result.status === "ok"
            ? result.rereserved
              ? "rereserved"
              : "captured"
            : "refund_pending";
    deps.metrics.payments.inc({ outcome });
    deps.logger.info(
      { user: deps.mask(input.userId), order: input.orderId, outcome },
      "payment recorded",
    );
    return result;
  };
}

async function confirmWithLock(deps: CoreDeps, input: Input): Promise<ConfirmPaymentResult> {
  const publicId = publicIdSchema.safeParse(input.orderId);
  if (publicId.success) {
    try {
      const outcome = await deps.locks.withLock(
        { kind: "order", id: publicId.data },
        ({ signal }) => recordPayment(deps, input, signal),
        { requestId: deps.requestId() },
      );
      if (outcome.status === "ok") return outcome.value;
      deps.logger.warn(
        { order: input.orderId, lock: outcome.status },
        "payment recorded without the order lock",
      );
    } catch (error) {
      if (
        !(error instanceof TransactionAbortedError) &&
        !(error instanceof Error && error.name === "LockUnavailableError")
      )
        throw error;
      deps.logger.warn(
        { order: input.orderId, err: error.name },
        "order lock lost while recording a payment: recording on database guarantees",
      );
    }
  }
  return recordPayment(deps, input);
}
