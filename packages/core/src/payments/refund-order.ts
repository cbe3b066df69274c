import type { OrderStatus, Tx } from "@orderbot/db";
import { z } from "zod";
import type { CoreDeps } from "../deps.ts";
import { publicIdSchema } from "../orders/public-id-schema.ts";
import { findOrderByPublicId } from "../orders/queries.ts";
import { transition } from "../orders/transitions.ts";
import {
  invalid,
  NOT_FOUND,
  type Busy,
  type Invalid,
  type NotFound,
  type Unavailable,
} from "../results.ts";
import { lockProductsOfOrders, moveOrderStock } from "../stock/ledger.ts";
import { lockedTransaction } from "../database/locked-transaction.ts";
import { parseWith, telegramId } from "../validation.ts";
import { paymentView, type OrderView, type PaymentView } from "../views.ts";
import { queueRefund } from "./refund-queue.ts";
import { revokeOrderItems } from "../delivery/revoke-items.ts";
import { recordShippedRefund, TIMELINE_NOTE_MAX } from "../fulfilment/timeline.ts";
import { refusalOf, type Actor, type Forbidden } from "../rights/may-do.ts";

export type RefundOrderResult =
  /** Refunded now (or earlier: `replayed`); `payments` are REFUND_PENDING for the worker. */
  | { status: "ok"; order: OrderView; payments: PaymentView[]; replayed: boolean }
  /** Only a paid order can be refunded. */
  | { status: "conflict"; current: OrderStatus }
  /** Its goods went out (SHIPPED, DELIVERED): refunding it is an explicit act with a reason. */
  | { status: "reason-required"; current: OrderStatus }
  | NotFound
  | Busy
  | Unavailable
  | Invalid
  | Forbidden;

const inputSchema = z.object({
  orderId: publicIdSchema,
  actor: telegramId,
  reason: z.string().trim().max(TIMELINE_NOTE_MAX, `at most ${TIMELINE_NOTE_MAX} characters`),
  actorName: z.string().trim().max(128).nullable(),
});

export interface RefundOrderOptions {
  /** Why: required once the goods went out, and recorded in the order's timeline. */
  reason?: string | null;
  /** The operator's name as the group shows it (the timeline, for other operators). */
  actorName?: string | null;
}

/**
 * An operator's /refund of a paid order: PAID → REFUNDED, its captured payment → REFUND_PENDING
 * (the worker calls refundStarPayment; other providers are refunded by hand, and operators are
 * alerted), the stock back on sale through a RESTOCK ledger row per item (once), and the user told.
 * A PROCESSING order is refunded the same way (nothing has left the shop). A SHIPPED or DELIVERED
 * order keeps its status (the goods are gone, nothing goes back on sale): its payment is refunded
 * only with a reason, which the timeline records with who and when.
 * Under the `order` lock; refused when Redis is down, like a cancellation.
 */
export function createRefundOrder(deps: CoreDeps) {
  return (
    orderId: string,
    actor: Actor,
    options: RefundOrderOptions = {},
  ): Promise<RefundOrderResult> => refundOrder(deps, orderId, actor, options);
}

/** Who refunds, why (null: no reason given) and the name the group knows them by. */
interface RefundBy {
  actor: string;
  reason: string | null;
  actorName: string | null;
}

interface LockedOrder {
  id: number;
  status: OrderStatus;
  version: number;
  chatId: bigint;
}

type PaymentRow = Awaited<ReturnType<Tx["payment"]["findMany"]>>[number];

async function refundOrder(
  deps: CoreDeps,
  orderId: string,
  actor: Actor,
  options: RefundOrderOptions,
): Promise<RefundOrderResult> {
  const refused = refusalOf("refund", actor);
  if (refused) return refused;
  const parsed = parseWith(inputSchema, {
    orderId,
    actor: actor.id,
    reason: options.reason ?? "",
    actorName: options.actorName ?? null,
  });
  if (!parsed.ok) return invalid(parsed.problems);
  const { orderId: publicId, actor: operator, reason, actorName } = parsed.value;
  const by = {
    actor: `op:${deps.mask(operator)}`,
    reason: reason === "" ? null : reason,
    actorName,
  };
  const result: RefundOrderResult = await lockedTransaction(
    deps,
    { kind: "order", id: publicId },
    (tx) => refund(deps, tx, publicId, by),
    { lockless: "refuse" },
  );
  deps.metrics.operations.inc({ op: "refund_order", outcome: result.status });
  if (result.status === "ok" && !result.replayed)
    deps.logger.info(
      { operator: deps.mask(operator), order: publicId },
      "order refunded by an operator",
    );
  return result;
}

async function refund(
  deps: CoreDeps,
  tx: Tx,
  publicId: string,
  by: RefundBy,
): Promise<RefundOrderResult> {
  const [order] = await tx.$queryRaw<LockedOrder[]>`
    SELECT id, status::text AS status, version, chat_id AS "chatId" FROM orders WHERE public_id = ${publicId} FOR UPDATE`;
  if (!order) return NOT_FOUND;
  if (order.status === "REFUNDED") {
    const payments = await tx.payment.findMany({
      where: { orderId: order.id },
      orderBy: { id: "asc" },
    });
    return replayed(tx, publicId, payments);
  }
  const shipped = order.status === "SHIPPED" || order.status === "DELIVERED";
  if (order.status !== "PAID" && order.status !== "PROCESSING" && !shipped)
    return { status: "conflict", current: order.status };
  const captured = await tx.payment.findMany({
    where: { orderId: order.id, status: "CAPTURED" },
  });
  if (shipped) {
    // Refunded before (by an operator or by Telegram): a replay, whatever the reason given.
    if (captured.length === 0)
      return replayed(tx, publicId, await tx.payment.findMany({ where: { orderId: order.id } }));
    if (by.reason === null) return { status: "reason-required", current: order.status };
    await recordShippedRefund(tx, order.id, order.status, by.actor, by.reason, by.actorName);
  } else {
    await transition(tx, order.id, [order.status], "REFUNDED", {
      version: order.version,
      actor: by.actor,
      actorName: by.actorName,
      note: by.reason,
    });
  }
  await refundCaptured(deps, tx, { ...order, publicId, shipped }, captured, by.actor);
  return {
    status: "ok",
    order: (await findOrderByPublicId(tx, publicId))!,
    payments: captured.map((p) => paymentView({ ...p, status: "REFUND_PENDING" }, publicId)),
    replayed: false,
  };
}

/** Refunded before: the order and its payments as they are. */
async function replayed(
  tx: Tx,
  publicId: string,
  payments: PaymentRow[],
): Promise<RefundOrderResult> {
  return {
    status: "ok",
    order: (await findOrderByPublicId(tx, publicId))!,
    payments: payments.map((p) => paymentView(p, publicId)),
    replayed: true,
  };
}

/**
 * The captured payments owed back (refunds queued), the digital items revoked, and the stock
 * back on sale unless the goods went out.
 */
async function refundCaptured(
  deps: CoreDeps,
  tx: Tx,
  order: LockedOrder & { publicId: string; shipped: boolean },
  captured: PaymentRow[],
  actor: string,
): Promise<void> {
  await tx.payment.updateMany({
    where: { id: { in: captured.map((p) => p.id) }, status: "CAPTURED" },
    data: { status: "REFUND_PENDING" },
  });
  await revokeOrderItems(tx, order.id, deps.clock.now());
  if (!order.shipped) await restock(deps, tx, order.id, actor);
  for (const payment of captured) {
    await queueRefund(tx, deps, { ...payment, orderId: order.publicId }, "operator");
  }
}

async function restock(deps: CoreDeps, tx: Tx, orderId: number, actor: string): Promise<void> {
  await lockProductsOfOrders(tx, [orderId]);
  const moved = await moveOrderStock(tx, [orderId], "RESTOCK", actor);
  deps.metrics.releasedUnits.inc(
    { reason: "RESTOCK" },
    moved.reduce((sum, m) => sum + m.delta, 0),
  );
}
