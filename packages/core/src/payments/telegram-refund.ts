import { runTransaction, type OrderStatus, type PaymentStatus, type Tx } from "@orderbot/db";
import { z } from "zod";
import type { CoreDeps } from "../deps.ts";
import { UNIQUE, violatedUniqueIndex } from "../database/db-errors.ts";
import { recordEvent } from "../events/record.ts";
import { transition } from "../orders/transitions.ts";
import { revokeOrderItems } from "../delivery/revoke-items.ts";
import { recordShippedRefund } from "../fulfilment/timeline.ts";
import { invalid, type Invalid } from "../results.ts";
import { lockProductsOfOrders, moveOrderStock } from "../stock/ledger.ts";
import { currencySchema, parseWith, telegramId } from "../validation.ts";

/** Telegram's `refunded_payment` service message, as the bot receives it. */
export interface TelegramRefundInput {
  telegramChargeId: string;
  providerChargeId?: string | null;
  /** The payer (the service message's sender). */
  userId: bigint | number | string;
  amount: number;
  currency: string;
}

export type TelegramRefundResult =
  /** The payment was captured: it is REFUNDED now, its order moved on, operators alerted once. */
  | {
      status: "recorded";
      orderId: string | null;
      /** The order's state now: REFUNDED if it was PAID or PROCESSING; SHIPPED and DELIVERED stay (the goods went out). */
      orderStatus: OrderStatus | null;
    }
  /** A refund the shop owed (its own refundStarPayment, mostly) is now confirmed: REFUNDED. */
  | { status: "completed" }
  /** Recorded already (the bot's own refund came back as this message, or a re-delivery). */
  | { status: "already-refunded" }
  /** A charge the shop never recorded: a REFUNDED row without an order, operators alerted. */
  | { status: "unknown-charge" }
  | Invalid;

const inputSchema = z.object({
  telegramChargeId: z.string().min(1).max(256),
  providerChargeId: z.string().max(256).nullish(),
  userId: telegramId,
  amount: z.number().int().positive(),
  currency: currencySchema,
});
type Input = z.output<typeof inputSchema>;

/** The actor recorded on a payment (and ledger rows) that Telegram's own message refunded. */
export const TELEGRAM_ACTOR = "telegram";

/** One alert per charge and operator chat, however often Telegram delivers the message. */
export const telegramRefundAlertKey = (telegramChargeId: string): string =>
  `refunded-outside:${telegramChargeId}`;

/**
 * Records a refund Telegram reports (`refunded_payment`), whoever made it: Telegram itself, an
 * operator through Telegram, or the bot's own refundStarPayment. Idempotent: the payment leaves
 * CAPTURED or REFUND_PENDING once, by a conditional update under its order's row lock. A captured
 * payment's PAID order goes REFUNDED through the state machine, its stock back on sale (RESTOCK,
 * once per item, as an operator's /refund does). No `order` lock: like a payment, a refund that
 * already happened is recorded on database guarantees alone.
 */
export function createRecordTelegramRefund(deps: CoreDeps) {
  return async function recordTelegramRefund(
    raw: TelegramRefundInput,
  ): Promise<TelegramRefundResult> {
    const parsed = parseWith(inputSchema, raw);
    if (!parsed.ok) return invalid(parsed.problems);
    const run = () => runTransaction(deps.db, (tx) => record(tx, deps, parsed.value));
    let result: TelegramRefundResult;
    try {
      result = await run();
    } catch (error) {
      // The charge's successful_payment was recorded at the same moment: now there is a row.
      if (violatedUniqueIndex(error) !== UNIQUE.paymentChargeId) throw error;
      result = await run();
    }
    deps.metrics.operations.inc({ op: "telegram_refund", outcome: result.status });
    if (result.status === "recorded" || result.status === "unknown-charge")
      deps.logger.warn(
        { user: deps.mask(parsed.value.userId), outcome: result.status },
        "Telegram reported a refund the shop did not make",
      );
    return result;
  };
}

interface PaymentRow {
  id: number;
  orderId: number | null;
  status: PaymentStatus;
}

interface LockedOrder {
  id: number;
  publicId: string;
  status: OrderStatus;
  version: number;
}

async function record(tx: Tx, deps: CoreDeps, input: Input): Promise<TelegramRefundResult> {
  const found = await tx.payment.findUnique({
    where: { telegramChargeId: input.telegramChargeId },
    select: { orderId: true },
  });
  if (!found) return recordUnknownCharge(tx, deps, input);
  // Order row first, then the payment, the order confirmPayment and refundOrder lock them in.
  const [order] = found.orderId
    ? await tx.$queryRaw<LockedOrder[]>`
        SELECT id, public_id AS "publicId", status::text AS status, version
          FROM orders WHERE id = ${found.orderId} FOR UPDATE`
    : [];
  const [payment] = await tx.$queryRaw<PaymentRow[]>`
    SELECT id, order_id AS "orderId", status::text AS status
      FROM payments WHERE telegram_charge_id = ${input.telegramChargeId} FOR UPDATE`;
  if (!payment || payment.status === "REFUNDED") return { status: "already-refunded" };
  await tx.payment.updateMany({
    where: { id: payment.id, status: payment.status },
    data: { status: "REFUNDED", refundedAt: deps.clock.now(), refundedBy: TELEGRAM_ACTOR },
  });
  if (payment.status === "REFUND_PENDING") return { status: "completed" };
  // A captured payment refunded: whatever the order's state, its digital items are revoked.
  if (order) await revokeOrderItems(tx, order.id, deps.clock.now());
  const orderStatus = order ? await refundOrderOf(tx, deps, order) : null;
  await alert(tx, deps, input, { orderId: order?.publicId ?? "", orderStatus: orderStatus ?? "" });
  return { status: "recorded", orderId: order?.publicId ?? null, orderStatus };
}

/** A charge the shop never recorded: a REFUNDED row without an order, operators alerted. */
async function recordUnknownCharge(
  tx: Tx,
  deps: CoreDeps,
  input: Input,
): Promise<TelegramRefundResult> {
  await tx.payment.create({
    data: {
      orderId: null,
      userId: input.userId,
      telegramChargeId: input.telegramChargeId,
      providerChargeId: input.providerChargeId ?? null,
      amountMinor: input.amount,
      currency: input.currency,
      status: "REFUNDED",
      refundedAt: deps.clock.now(),
      refundedBy: TELEGRAM_ACTOR,
    },
  });
  await alert(tx, deps, input, { orderId: "", orderStatus: "" });
  return { status: "unknown-charge" };
}

/**
 * A captured payment's order after its refund: PAID or PROCESSING go REFUNDED with their stock
 * back on sale; SHIPPED and DELIVERED stay (the goods went out) and the timeline records it.
 */
async function refundOrderOf(tx: Tx, deps: CoreDeps, order: LockedOrder): Promise<OrderStatus> {
  if (order.status === "PAID" || order.status === "PROCESSING") {
    await transition(tx, order.id, [order.status], "REFUNDED", {
      version: order.version,
      actor: TELEGRAM_ACTOR,
    });
    await lockProductsOfOrders(tx, [order.id]);
    const moved = await moveOrderStock(tx, [order.id], "RESTOCK", TELEGRAM_ACTOR);
    deps.metrics.releasedUnits.inc(
      { reason: "RESTOCK" },
      moved.reduce((sum, m) => sum + m.delta, 0),
    );
    return "REFUNDED";
  }
  if (order.status === "SHIPPED" || order.status === "DELIVERED")
    await recordShippedRefund(tx, order.id, order.status, TELEGRAM_ACTOR, null);
  return order.status;
}

/** The operators' alert of a refund made outside the shop, once per charge. */
function alert(
  tx: Tx,
  deps: CoreDeps,
  input: Input,
  order: { orderId: string; orderStatus: string },
): Promise<number> {
  return recordEvent(
    tx,
    {
      kind: "refund.outside",
      amountMinor: input.amount,
      currency: input.currency,
      telegramChargeId: input.telegramChargeId,
      ...order,
    },
    { dedupeKey: telegramRefundAlertKey(input.telegramChargeId) },
    deps.config.fallbackOperatorChatId,
  );
}
