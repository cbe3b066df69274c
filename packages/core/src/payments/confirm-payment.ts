import { runTransaction, TransactionAbortedError, type OrderStatus, type Tx } from "@orderbot/db";
import { z } from "zod";
import type { CoreDeps } from "../deps.ts";
import { fulfilmentButtons } from "../fulfilment/buttons.ts";
import { formatMoney } from "../money.ts";
import { enqueueOperatorAlert, enqueueOutbox } from "../outbox/messages.ts";
import { publicIdSchema } from "../orders/public-id-schema.ts";
import { findOrderByPublicId } from "../orders/queries.ts";
import { OPEN_STATUSES, transition } from "../orders/transitions.ts";
import { invalid, type Invalid } from "../results.ts";
import { lockProductsOfOrders, moveOrderStock } from "../stock/ledger.ts";
import { UNIQUE, violatedUniqueIndex } from "../database/db-errors.ts";
import { currencySchema, parseWith, telegramId } from "../validation.ts";
import { paymentView, type OrderView, type PaymentView } from "../views.ts";
import { queueRefund, type RefundReason, type RefundSubject } from "./refund-queue.ts";
import { deliverOrder } from "../delivery/deliver-order.ts";
import { pickDigitalItems, type PickedItems } from "../delivery/pick-items.ts";
import { orderInfoSchema, type OrderInfo } from "../shipping/order-info.ts";
import { recordShipping } from "../shipping/record-shipping.ts";
import { shippingText, showPhoneButton } from "../shipping/operator-text.ts";
import { isPhysicalOrder, shippingCharge } from "../shipping/shipping-charge.ts";
import { giveBackPromoUses, retakePromoUse } from "../promotions/give-back.ts";

/** An order a payment can pay for: open, or expired/cancelled and re-reserved. */
const PAYABLE_STATUSES: readonly OrderStatus[] = [...OPEN_STATUSES, "EXPIRED", "CANCELLED"];

export interface ConfirmPaymentInput {
  /** The order's public id, from the invoice payload. */
  orderId: string;
  userId: bigint | number | string;
  telegramChargeId: string;
  providerChargeId?: string | null;
  /** Telegram's total_amount, in minor units, and its currency. */
  amount: number;
  currency: string;
  /** The payer's language, for the confirmation the outbox sends if the bot's own reply does not. */
  locale?: "en" | "zh";
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

/**
 * How long the queued "payment received" waits for the bot's own reply to say it first (and
 * settle it). Longer than a reply takes even when Telegram is slow; short enough that a user whose
 * reply was lost (a crash, a failed send) hears within half a minute.
 */
export const PAYMENT_NOTICE_GRACE_MS = 20_000;

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
  locale: z.enum(["en", "zh"]).optional(),
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
type Input = z.output<typeof inputSchema>;

/**
 * The outbox key of an order's "payment received" to its user (settled by the bot's own reply).
 * Not `paid:…`: that prefix is the operators' paid-order alerts (`paid:<order>:<chat>`).
 */
export function paymentNoticeKey(orderPublicId: string): string {
  return `payment-received:${orderPublicId}`;
}

interface LockedOrder {
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

/** The transaction, usable with or without the lock; a duplicate charge id is a clean result. */
export async function recordPayment(
  deps: CoreDeps,
  input: Input,
  signal?: AbortSignal,
): Promise<ConfirmPaymentResult> {
  try {
    return await runTransaction(deps.db, (tx) => record(tx, deps, input), {
      signal,
      timeoutMs: deps.config.transactionTimeoutMs,
      maxWaitMs: deps.config.transactionMaxWaitMs,
    });
  } catch (error) {
    if (violatedUniqueIndex(error) !== UNIQUE.paymentChargeId) throw error;
    // Recorded concurrently by a twin (for another order id in the payload, or a lockless path).
    return runTransaction(deps.db, (tx) => record(tx, deps, input));
  }
}

async function record(tx: Tx, deps: CoreDeps, input: Input): Promise<ConfirmPaymentResult> {
  const rows = await tx.$queryRaw<LockedOrder[]>`
    SELECT id, public_id AS "publicId", status::text AS status, version, user_id AS "userId", chat_id AS "chatId",
           total_minor AS "totalMinor", currency
    FROM orders WHERE public_id = ${input.orderId.toUpperCase()} FOR UPDATE`;
  const order = rows[0];
  // After the row lock: a concurrent confirmation of the same order has committed by now.
  const existing = await tx.payment.findUnique({
    where: { telegramChargeId: input.telegramChargeId },
    include: { order: { select: { publicId: true } } },
  });
  if (existing) {
    const publicId = existing.order?.publicId ?? null;
    const view = publicId ? await findOrderByPublicId(tx, publicId) : null;
    const payment = paymentView(existing, publicId);
    return existing.status === "CAPTURED" && view
      ? { status: "ok", order: view, payment, duplicate: true, rereserved: false, codesSent: false }
      : { status: "refund-pending", reason: "duplicate", order: view, payment, duplicate: true };
  }
  if (!order) {
    // Money taken for no order we know still gets its row (docs/architecture.md, Data model), so
    // the refunds job, the refund-age alert and /refunds see it like any other refund owed.
    const payment = await tx.payment.create({
      data: {
        orderId: null,
        userId: input.userId,
        telegramChargeId: input.telegramChargeId,
        providerChargeId: input.providerChargeId ?? null,
        amountMinor: input.amount,
        currency: input.currency,
        status: "REFUND_PENDING",
      },
    });
    // No order, so no order chat: the payer hears in their private chat, whose id is their user id.
    await queueRefund(
      tx,
      deps,
      refundOf(input, { orderId: null, chatId: input.userId }),
      "unknown-order",
    );
    return {
      status: "refund-pending",
      reason: "unknown-order",
      order: null,
      payment: paymentView(payment, null),
      duplicate: false,
    };
  }

  let reason: RefundReason | null = null;
  let rereserved = false;
  let picked: PickedItems | null = null;
  // Goods + the configured price of the option chosen (a physical order), never the client's sum.
  const shipping = shippingCharge(deps.config.shippingOptions, {
    physical: await isPhysicalOrder(tx, order.id),
    goodsMinor: order.totalMinor,
    shippingOptionId: input.shippingOptionId,
    address: input.orderInfo?.shipping_address,
  });
  if (order.userId !== input.userId) reason = "not-yours";
  else if (
    order.currency !== input.currency ||
    !shipping.ok ||
    shipping.payableMinor !== input.amount
  )
    reason = "amount-mismatch";
  // A digital line's items, locked before the order moves: a pool that ran short (edited since
  // the reservation) refunds the payment and leaves the order where it was.
  else if (
    PAYABLE_STATUSES.includes(order.status) &&
    !(picked = await pickDigitalItems(tx, order.id)).ok
  )
    reason = "pool-short";
  else if ((OPEN_STATUSES as readonly OrderStatus[]).includes(order.status)) {
    if (
      !(await transition(tx, order.id, OPEN_STATUSES, "PAID", {
        version: order.version,
        now: deps.clock.now(),
      }))
    )
      throw new Error(`order ${order.publicId} changed under its row lock`);
  } else if (order.status === "EXPIRED" || order.status === "CANCELLED") {
    // It was charged the discounted total, so it takes its promo use again first (the code's row
    // before the products', as in a reservation); none left: refunded like stock that is gone.
    const promo = await retakePromoUse(tx, order.id);
    rereserved = promo !== "used-up" && (await reReserve(tx, order));
    if (rereserved)
      await transition(tx, order.id, [order.status], "PAID", {
        version: order.version,
        now: deps.clock.now(),
      });
    else if (promo === "used-up") reason = "late-promo-used-up";
    else {
      if (promo === "taken") await giveBackPromoUses(tx, [order.id]);
      reason = "late-out-of-stock";
    }
  } else reason = "already-paid";

  const payment = await tx.payment.create({
    data: {
      orderId: order.id,
      userId: input.userId,
      telegramChargeId: input.telegramChargeId,
      providerChargeId: input.providerChargeId ?? null,
      amountMinor: input.amount,
      currency: input.currency,
      status: reason ? "REFUND_PENDING" : "CAPTURED",
    },
  });
  if (!reason && shipping.ok) await recordShipping(tx, order.id, shipping, input.orderInfo);
  const view = (await findOrderByPublicId(tx, order.publicId))!;
  if (reason) {
    await queueRefund(
      tx,
      deps,
      refundOf(input, { orderId: order.publicId, chatId: order.chatId }),
      reason,
    );
    return {
      status: "refund-pending",
      reason,
      order: view,
      payment: paymentView(payment, order.publicId),
      duplicate: false,
    };
  }
  // The codes given, as operators may see them: a count and masked tails ("" for no pool).
  const codes = picked ? await deliverOrder(tx, deps, order, picked, input.locale) : "";
  // With the buttons of the next step (processing, shipped): features/operator/fulfilment.ts.
  await enqueueOperatorAlert(
    tx,
    deps,
    `paid:${order.publicId}`,
    "operator-order-paid",
    {
      orderId: order.publicId,
      // What was paid: the goods, plus shipping for a physical order.
      amountMinor: order.totalMinor + (view.shipping?.shippingMinor ?? 0),
      currency: order.currency,
      // What to pack and for whom: the items in both languages (the worker shows the group's),
      // the customer as operators may see them (the last four digits of their id).
      itemsEn: withShipping(deps, view, "en") + codes,
      itemsZh: withShipping(deps, view, "zh") + codes,
      customer: customerLabel(order.userId, input.customer),
    },
    [
      ...fulfilmentButtons(order.publicId, "PAID"),
      ...(view.shipping?.hasContact ? [showPhoneButton(order.publicId)] : []),
    ],
  );
  // The user's confirmation, committed with the payment: if the bot's reply never goes out (it
  // crashed, or Telegram refused it), the worker sends this one when the grace period is over.
  await enqueueOutbox(tx, [
    {
      dedupeKey: paymentNoticeKey(order.publicId),
      chatId: order.chatId,
      method: "notify",
      payload: {
        template: "payment-received",
        params: { orderId: order.publicId, hasCodes: codes ? "yes" : "no" },
        ...(input.locale ? { locale: input.locale } : {}),
      },
      notBefore: new Date(deps.clock.now().getTime() + PAYMENT_NOTICE_GRACE_MS),
    },
  ]);
  return {
    status: "ok",
    order: view,
    payment: paymentView(payment, order.publicId),
    duplicate: false,
    rereserved,
    codesSent: codes !== "",
  };
}

/** This payment's money, to be refunded; `to` is the order it names (if any) and the chat told about it. */
function refundOf(input: Input, to: Pick<RefundSubject, "orderId" | "chatId">): RefundSubject {
  return {
    telegramChargeId: input.telegramChargeId,
    userId: input.userId,
    amountMinor: input.amount,
    currency: input.currency,
    orderId: to.orderId,
    chatId: to.chatId,
  };
}

/**
 * A late payment for an order whose stock went back on sale: take the stock again if every item
 * is still there (products row-locked in id order, then a RERESERVE ledger row per item, once).
 */
async function reReserve(tx: Tx, order: LockedOrder): Promise<boolean> {
  const items = await tx.orderItem.findMany({ where: { orderId: order.id } });
  const stock = new Map((await lockProductsOfOrders(tx, [order.id])).map((p) => [p.id, p.stock]));
  if (items.some((item) => (stock.get(item.productId) ?? 0) < item.quantity)) return false;
  const moved = await moveOrderStock(tx, [order.id], "RERESERVE", "user");
  const taken = -moved.reduce((sum, m) => sum + m.delta, 0);
  const wanted = items.reduce((sum, i) => sum + i.quantity, 0);
  // An order is re-reserved at most once (it is PAID afterwards, never expired again): a ledger row
  // that already existed here would mean the state machine was bypassed.
  if (taken !== wanted)
    throw new Error(`order ${order.publicId}: re-reserved ${taken} of ${wanted} units`);
  return true;
}

/** "• Longjing green tea × 2: 50 ⭐" lines, for the operators' paid-order notice. */
function itemsText(order: OrderView, locale: "en" | "zh"): string {
  return order.items
    .map(
      (item) =>
        // Chinese takes a full-width colon, as everywhere in the shop's Chinese.
        `• ${item.title[locale]} × ${item.quantity}${locale === "zh" ? "：" : ": "}${formatMoney(item.unitPriceMinor * item.quantity, order.currency)}`,
    )
    .join("\n");
}

/** The items, then a physical order's shipping (option, address, phone masked). */
function withShipping(deps: CoreDeps, view: OrderView, locale: "en" | "zh"): string {
  const items = itemsText(view, locale);
  if (!view.shipping) return items;
  const shipping = shippingText(view.shipping, view.currency, deps.config.shippingOptions, locale);
  return `${items}\n${shipping}`;
}

/** "Ann Lee (@ann_lee) · ••••0001": the name the customer shows, and never more of the id than that. */
function customerLabel(
  userId: bigint,
  customer: { name: string; username?: string | undefined } | undefined,
): string {
  const masked = `••••${String(userId).slice(-4)}`;
  if (!customer) return masked;
  const name = customer.username ? `${customer.name} (@${customer.username})` : customer.name;
  return `${name} · ${masked}`;
}
