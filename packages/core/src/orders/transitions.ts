import { OrderStatus, type Tx } from "@orderbot/db";

export type { OrderStatus };

/** Every order status, in the schema's order (for an operator's `/orders STATUS`). */
export const ORDER_STATUSES: readonly OrderStatus[] = Object.values(OrderStatus);

/** Orders that hold stock and can still be paid, cancelled or expired. */
export const OPEN_STATUSES = ["RESERVED", "PAYING"] as const satisfies readonly OrderStatus[];

/**
 * The state machine of docs/architecture.md, "Order states". EXPIRED/CANCELLED → PAID is a late
 * payment whose stock could be re-reserved (the ledger's RERESERVE row); a payment that cannot be
 * re-reserved is refunded and the order stays where it was.
 */
export const LEGAL_TRANSITIONS: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  RESERVED: ["PAYING", "PAID", "CANCELLED", "EXPIRED"],
  PAYING: ["PAID", "CANCELLED", "EXPIRED"],
  PAID: ["FULFILLED", "REFUNDED"],
  FULFILLED: [],
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
 * is a normal outcome, reported as `false`.
 */
export async function transition(
  tx: Tx,
  orderId: number,
  from: readonly OrderStatus[],
  to: OrderStatus,
  options: { version?: number; expiresAt?: Date } = {},
): Promise<boolean> {
  for (const status of from) {
    if (!isLegalTransition(status, to))
      throw new Error(`illegal order transition ${status} -> ${to}`);
  }
  const { count } = await tx.order.updateMany({
    where: {
      id: orderId,
      status: { in: [...from] },
      ...(options.version === undefined ? {} : { version: options.version }),
    },
    data: {
      status: to,
      version: { increment: 1 },
      ...(options.expiresAt ? { expiresAt: options.expiresAt } : {}),
    },
  });
  return count === 1;
}
