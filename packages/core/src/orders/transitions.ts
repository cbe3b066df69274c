import { OrderStatus, type Tx } from "@orderbot/db";
import { queueMoveEvents } from "./move-events.ts";

export type { OrderStatus };

/** Every order status, in the schema's order (for an operator's `/orders STATUS`). */
export const ORDER_STATUSES: readonly OrderStatus[] = Object.values(OrderStatus);

/** Orders that hold stock and can still be paid, cancelled or expired. */
export const OPEN_STATUSES = ["RESERVED", "PAYING"] as const satisfies readonly OrderStatus[];

/** The fulfilment after payment, in order: an order only ever moves forward along it. */
export const FULFILMENT_STATUSES = [
  "PAID",
  "PROCESSING",
  "SHIPPED",
  "DELIVERED",
] as const satisfies readonly OrderStatus[];
export type FulfilmentStatus = (typeof FULFILMENT_STATUSES)[number];

/** Paid orders whose goods have not gone out: a refund puts their stock back on sale. */
export const UNSHIPPED_PAID_STATUSES = [
  "PAID",
  "PROCESSING",
] as const satisfies readonly OrderStatus[];

/** Paid orders whose goods went out: a refund keeps the status and needs a reason. */
export const SHIPPED_STATUSES = ["SHIPPED", "DELIVERED"] as const satisfies readonly OrderStatus[];

/**
 * The state machine of docs/architecture.md, "Order states". EXPIRED/CANCELLED → PAID is a late
 * payment whose stock could be re-reserved (the ledger's RERESERVE row); a payment that cannot be
 * re-reserved is refunded and the order stays where it was.
 */
export const LEGAL_TRANSITIONS: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  RESERVED: ["PAYING", "PAID", "CANCELLED", "EXPIRED"],
  PAYING: ["PAID", "CANCELLED", "EXPIRED"],
  PAID: ["PROCESSING", "SHIPPED", "DELIVERED", "REFUNDED"],
  PROCESSING: ["SHIPPED", "DELIVERED", "REFUNDED"],
  SHIPPED: ["DELIVERED"],
  DELIVERED: [],
  CANCELLED: ["PAID"],
  EXPIRED: ["PAID"],
  REFUNDED: [],
};

export function isLegalTransition(from: OrderStatus, to: OrderStatus): boolean {
  return LEGAL_TRANSITIONS[from].includes(to);
}

/**
 * The one way an order changes state: `UPDATE ... SET status = to, version = version + 1 WHERE
 * id = ? AND status IN (from) [AND version = ?]`. The row count decides who won a race; losing
 * is a normal outcome, reported as `false`. A move that won is recorded in the order's timeline
 * (from, to, who, an optional note) in the same transaction; `actor` is `op:<masked id>`,
 * `customer`, `telegram` or `system` (the default).
 */
export async function transition(
  tx: Tx,
  orderId: number,
  from: readonly OrderStatus[],
  to: OrderStatus,
  options: {
    version?: number;
    expiresAt?: Date;
    actor?: string;
    /** An operator's display name, for other operators (see fulfilment/timeline.ts). */
    actorName?: string | null;
    note?: string | null;
  },
): Promise<boolean> {
  for (const status of from) {
    if (!isLegalTransition(status, to))
      throw new Error(`illegal order transition ${status} -> ${to}`);
  }
  // The timeline needs the status moved from: with several candidates, read it, and make the
  // update conditional on exactly what was read (a version always changes with the status).
  let fromStatus = from.length === 1 ? from[0] : undefined;
  let version = options.version;
  if (fromStatus === undefined) {
    const current = await tx.order.findUnique({
      where: { id: orderId },
      select: { status: true, version: true },
    });
    if (!current || !from.includes(current.status)) return false;
    if (version !== undefined && current.version !== version) return false;
    fromStatus = current.status;
    version = current.version;
  }
  const { count } = await tx.order.updateMany({
    where: {
      id: orderId,
      status: fromStatus,
      ...(version === undefined ? {} : { version }),
    },
    data: {
      status: to,
      version: { increment: 1 },
      ...(options.expiresAt ? { expiresAt: options.expiresAt } : {}),
    },
  });
  if (count !== 1) return false;
  // The customer's card shows the new state, and an invoice that can no longer be paid goes.
  await queueMoveEvents(tx, orderId, to);
  await tx.orderTimelineEntry.create({
    data: {
      orderId,
      fromStatus,
      toStatus: to,
      actor: options.actor ?? "system",
      actorName: options.actorName ?? null,
      note: options.note ?? null,
    },
  });
  return true;
}
