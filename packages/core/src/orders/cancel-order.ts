import type { CoreDeps } from "../deps.ts";
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
import { z } from "zod";
import type { OrderStatus, Tx } from "@orderbot/db";
import { findOrderByPublicId } from "./queries.ts";
import { OPEN_STATUSES, transition } from "./transitions.ts";
import { publicIdSchema } from "./public-id-schema.ts";
import { giveBackPromoUses } from "../promotions/give-back.ts";
import type { OrderView } from "../views.ts";

export type CancelOrderResult =
  /** Cancelled now, or already cancelled by an earlier call (`replayed`). */
  | { status: "ok"; order: OrderView; replayed: boolean }
  /** The reservation ran out first. */
  | { status: "expired" }
  /** Paid, fulfilled or refunded: no longer the user's to cancel. */
  | { status: "conflict"; current: OrderStatus }
  /** No such order, or another customer's: alike. */
  | NotFound
  | Busy
  | Unavailable
  | Invalid;

const inputSchema = z.object({ orderId: publicIdSchema, userId: telegramId });

/**
 * Cancels an open order for its owner. Takes the `order` lock with a short wait; when Redis is down
 * it refuses (a cancellation can wait, and the user is told to retry). The transition is
 * conditional on the version read, and the stock returns exactly once: the ledger's unique
 * (order, product, RELEASE) row drives the increment.
 */
export function createCancelOrder(deps: CoreDeps) {
  return async function cancelOrder(
    orderId: string,
    userId: bigint | number | string,
  ): Promise<CancelOrderResult> {
    const parsed = parseWith(inputSchema, { orderId, userId });
    if (!parsed.ok) return invalid(parsed.problems);
    const input = parsed.value;
    const result: CancelOrderResult = await lockedTransaction(
      deps,
      { kind: "order", id: input.orderId },
      (tx) => cancel(tx, deps, input.orderId, input.userId),
      { lockless: "refuse" }, // the `order` kind runs lockless on an outage for payments; a cancel can wait
    );
    deps.metrics.operations.inc({ op: "cancel", outcome: result.status });
    if (result.status === "ok" && !result.replayed)
      deps.logger.info({ user: deps.mask(input.userId), order: input.orderId }, "order cancelled");
    return result;
  };
}

/** The cancellation itself, in the caller's transaction. */
async function cancel(
  tx: Tx,
  deps: CoreDeps,
  publicId: string,
  userId: bigint,
): Promise<CancelOrderResult> {
  for (;;) {
    const order = await tx.order.findUnique({
      where: { publicId },
      select: { id: true, userId: true, status: true, version: true },
    });
    // Alike: another customer's order is answered as one that does not exist.
    if (!order || order.userId !== userId) return NOT_FOUND;
    if (order.status === "CANCELLED") {
      const view = await findOrderByPublicId(tx, publicId);
      return { status: "ok", order: view!, replayed: true };
    }
    if (order.status === "EXPIRED") return { status: "expired" };
    if (!(OPEN_STATUSES as readonly OrderStatus[]).includes(order.status))
      return { status: "conflict", current: order.status };
    // Conditional on the version read: a payment or the expiry job that got there first wins,
    // and the loop reads what it did.
    if (
      !(await transition(tx, order.id, OPEN_STATUSES, "CANCELLED", {
        version: order.version,
      }))
    )
      continue;
    // Its promo use goes back with the stock, once: this transition is won once.
    await giveBackPromoUses(tx, [order.id]);
    await lockProductsOfOrders(tx, [order.id]);
    const moved = await moveOrderStock(tx, [order.id], "RELEASE", "user");
    deps.metrics.releasedUnits.inc(
      { reason: "RELEASE" },
      moved.reduce((sum, m) => sum + m.delta, 0),
    );
    const view = await findOrderByPublicId(tx, publicId);
    return { status: "ok", order: view!, replayed: false };
  }
}
