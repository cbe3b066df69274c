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

export type RefundOrderResult =
  /** Refunded now (or earlier: `replayed`); `payments` are REFUND_PENDING for the worker. */
  | { status: "ok"; order: OrderView; payments: PaymentView[]; replayed: boolean }
  /** Only a PAID order can be refunded. */
  | { status: "conflict"; current: OrderStatus }
  | NotFound
  | Busy
  | Unavailable
  | Invalid;

const inputSchema = z.object({ orderId: publicIdSchema, actor: telegramId });

/**
 * An operator's /refund of a paid order: PAID → REFUNDED, its captured payment → REFUND_PENDING
 * (the worker calls refundStarPayment; other providers are refunded by hand, and operators are
 * alerted), the stock back on sale through a RESTOCK ledger row per item (once), and the user told.
 * Under the `order` lock; refused when Redis is down, like a cancellation.
 */
export function createRefundOrder(deps: CoreDeps) {
  return async function refundOrder(
    orderId: string,
    actor: bigint | number | string,
  ): Promise<RefundOrderResult> {
    const parsed = parseWith(inputSchema, { orderId, actor });
    if (!parsed.ok) return invalid(parsed.problems);
    const { orderId: publicId, actor: operator } = parsed.value;
    const result: RefundOrderResult = await lockedTransaction(
      deps,
      { kind: "order", id: publicId },
      (tx) => refund(tx, publicId, `op:${deps.mask(operator)}`),
      { lockless: "refuse" },
    );
    deps.metrics.operations.inc({ op: "refund_order", outcome: result.status });
    if (result.status === "ok" && !result.replayed)
      deps.logger.info(
        { operator: deps.mask(operator), order: publicId },
        "order refunded by an operator",
      );
    return result;
  };

  async function refund(tx: Tx, publicId: string, actor: string): Promise<RefundOrderResult> {
    const [order] = await tx.$queryRaw<
      { id: number; status: OrderStatus; version: number; chatId: bigint }[]
    >`
      SELECT id, status::text AS status, version, chat_id AS "chatId" FROM orders WHERE public_id = ${publicId} FOR UPDATE`;
    if (!order) return NOT_FOUND;
    if (order.status === "REFUNDED") {
      const payments = await tx.payment.findMany({
        where: { orderId: order.id },
        orderBy: { id: "asc" },
      });
      return {
        status: "ok",
        order: (await findOrderByPublicId(tx, publicId))!,
        payments: payments.map((p) => paymentView(p, publicId)),
        replayed: true,
      };
    }
    if (order.status !== "PAID") return { status: "conflict", current: order.status };
    await transition(tx, order.id, ["PAID"], "REFUNDED", { version: order.version });
    const captured = await tx.payment.findMany({
      where: { orderId: order.id, status: "CAPTURED" },
    });
    await tx.payment.updateMany({
      where: { id: { in: captured.map((p) => p.id) }, status: "CAPTURED" },
      data: { status: "REFUND_PENDING" },
    });
    await lockProductsOfOrders(tx, [order.id]);
    const moved = await moveOrderStock(tx, [order.id], "RESTOCK", actor);
    deps.metrics.releasedUnits.inc(
      { reason: "RESTOCK" },
      moved.reduce((sum, m) => sum + m.delta, 0),
    );
    for (const payment of captured) {
      await queueRefund(
        tx,
        deps,
        { ...payment, orderId: publicId, chatId: order.chatId },
        "operator",
      );
    }
    return {
      status: "ok",
      order: (await findOrderByPublicId(tx, publicId))!,
      payments: captured.map((p) => paymentView({ ...p, status: "REFUND_PENDING" }, publicId)),
      replayed: false,
    };
  }
}
