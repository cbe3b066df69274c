import { runTransaction, type OrderStatus, type PaymentModel, type Tx } from "@orderbot/db";
import type { CoreDeps } from "../deps.ts";
import { findOrderByPublicId } from "../orders/queries.ts";
import { OPEN_STATUSES, transition } from "../orders/transitions.ts";
import { lockProductsOfOrders, moveOrderStock } from "../stock/ledger.ts";
import { UNIQUE, violatedUniqueIndex } from "../database/db-errors.ts";
import { paymentView } from "../views.ts";
import { queueRefund, type RefundReason, type RefundSubject } from "./refund-queue.ts";
import { deliverOrder } from "../delivery/deliver-order.ts";
import { pickDigitalItems, type PickedItems } from "../delivery/pick-items.ts";
import { recordShipping } from "../shipping/record-shipping.ts";
import {
  isPhysicalOrder,
  shippingCharge,
  type ShippingCharge,
} from "../shipping/shipping-charge.ts";
import { giveBackPromoUses, retakePromoUse } from "../promotions/give-back.ts";
import type { ConfirmPaymentResult, Input, LockedOrder } from "./confirm-payment.ts";
import { announcePaid } from "./paid-notices.ts";

/** An order a payment can pay for: open, or expired/cancelled and re-reserved. */
const PAYABLE_STATUSES: readonly OrderStatus[] = [...OPEN_STATUSES, "EXPIRED", "CANCELLED"];

/** What a payment did to its order: why it is refunded (null: it paid), and what it took. */
interface Applied {
  reason: RefundReason | null;
  rereserved: boolean;
  picked: PickedItems | null;
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
  if (existing) return duplicateOf(tx, existing, existing.order?.publicId ?? null);
  if (!order) return recordOrderless(tx, deps, input);
  // Goods + the configured price of the option chosen (a physical order), never the client's sum.
  const shipping = shippingCharge(deps.config.shippingOptions, {
    physical: await isPhysicalOrder(tx, order.id),
    goodsMinor: order.totalMinor,
    shippingOptionId: input.shippingOptionId,
    address: input.orderInfo?.shipping_address,
  });
  const { reason, rereserved, picked } = await applyToOrder(tx, deps, input, order, shipping);
  const payment = await tx.payment.create({
    data: paymentRow(input, order.id, reason ? "REFUND_PENDING" : "CAPTURED"),
  });
  if (!reason && shipping.ok) await recordShipping(tx, order.id, shipping, input.orderInfo);
  const view = (await findOrderByPublicId(tx, order.publicId))!;
  const paymentOut = paymentView(payment, order.publicId);
  if (reason) {
    await queueRefund(tx, deps, refundOf(input, order.publicId), reason);
    return { status: "refund-pending", reason, order: view, payment: paymentOut, duplicate: false };
  }
  // The codes given, as operators may see them: masked tails (none without a pool).
  const codes = picked ? await deliverOrder(tx, deps, order, picked) : [];
  await announcePaid(tx, deps, { input, order, view, codes });
  return {
    status: "ok",
    order: view,
    payment: paymentOut,
    duplicate: false,
    rereserved,
    codesSent: codes.length > 0,
  };
}

/** This charge was recorded before: its first outcome again, nothing written. */
async function duplicateOf(
  tx: Tx,
  existing: PaymentModel,
  publicId: string | null,
): Promise<ConfirmPaymentResult> {
  const view = publicId ? await findOrderByPublicId(tx, publicId) : null;
  const payment = paymentView(existing, publicId);
  return existing.status === "CAPTURED" && view
    ? { status: "ok", order: view, payment, duplicate: true, rereserved: false, codesSent: false }
    : { status: "refund-pending", reason: "duplicate", order: view, payment, duplicate: true };
}

/**
 * Money taken for no order we know still gets its row (docs/architecture.md, Data model), so the
 * refunds job, the refund-age alert and /refunds see it like any other refund owed.
 */
async function recordOrderless(
  tx: Tx,
  deps: CoreDeps,
  input: Input,
): Promise<ConfirmPaymentResult> {
  const payment = await tx.payment.create({ data: paymentRow(input, null, "REFUND_PENDING") });
  // No order, so no order chat: the payer hears in their private chat, whose id is their user id.
  await queueRefund(tx, deps, refundOf(input, null), "unknown-order");
  return {
    status: "refund-pending",
    reason: "unknown-order",
    order: null,
    payment: paymentView(payment, null),
    duplicate: false,
  };
}

/** The payment's row: this charge, for this order (or none), captured or owed back. */
function paymentRow(input: Input, orderId: number | null, status: "CAPTURED" | "REFUND_PENDING") {
  return {
    orderId,
    userId: input.userId,
    telegramChargeId: input.telegramChargeId,
    providerChargeId: input.providerChargeId ?? null,
    amountMinor: input.amount,
    currency: input.currency,
    status,
  };
}

/** Pays the order if this payment can (the order moves to PAID), or says why it is refunded. */
async function applyToOrder(
  tx: Tx,
  deps: CoreDeps,
  input: Input,
  order: LockedOrder,
  shipping: ShippingCharge,
): Promise<Applied> {
  const refunded = (reason: RefundReason): Applied => ({ reason, rereserved: false, picked: null });
  if (order.userId !== input.userId) return refunded("not-yours");
  if (order.currency !== input.currency || !shipping.ok || shipping.payableMinor !== input.amount)
    return refunded("amount-mismatch");
  if (!PAYABLE_STATUSES.includes(order.status)) return refunded("already-paid");
  // A digital line's items, locked before the order moves: a pool that ran short (edited since
  // the reservation) refunds the payment and leaves the order where it was.
  const picked = await pickDigitalItems(tx, order.id);
  if (!picked.ok) return refunded("pool-short");
  if ((OPEN_STATUSES as readonly OrderStatus[]).includes(order.status)) {
    if (
      !(await transition(tx, order.id, OPEN_STATUSES, "PAID", {
        version: order.version,
      }))
    )
      throw new Error(`order ${order.publicId} changed under its row lock`);
    return { reason: null, rereserved: false, picked };
  }
  return { ...(await payLateOrder(tx, deps, order)), picked };
}

/**
 * An EXPIRED or CANCELLED order: it was charged the discounted total, so it takes its promo use
 * again first (the code's row before the products', as in a reservation), then its stock; none
 * left: refunded like stock that is gone.
 */
async function payLateOrder(
  tx: Tx,
  deps: CoreDeps,
  order: LockedOrder,
): Promise<Omit<Applied, "picked">> {
  const promo = await retakePromoUse(tx, order.id);
  const rereserved = promo !== "used-up" && (await reReserve(tx, order));
  if (rereserved) {
    await transition(tx, order.id, [order.status], "PAID", {
      version: order.version,
    });
    return { reason: null, rereserved };
  }
  if (promo === "used-up") return { reason: "late-promo-used-up", rereserved };
  if (promo === "taken") await giveBackPromoUses(tx, [order.id]);
  return { reason: "late-out-of-stock", rereserved };
}

/** This payment's money, to be refunded; `orderId`: the order it names, if any. */
function refundOf(input: Input, orderId: string | null): RefundSubject {
  return {
    telegramChargeId: input.telegramChargeId,
    userId: input.userId,
    amountMinor: input.amount,
    currency: input.currency,
    orderId,
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
