// The order's idempotency key: one order per intent (a button press, a re-delivered update). The
// unique index orders_idempotency_key_key (prisma/migrations/20261129000000_init) refuses a second
// order with the key, whatever the interleaving; the look-up answers a replay with the first one's.
import type { Database, Tx } from "@orderbot/db";
import { UNIQUE, violatedUniqueIndex } from "../database/db-errors.ts";
import { ORDER_INCLUDE, orderView, type OrderView } from "../views.ts";

/**
 * The key as stored: scoped to its user, so two users whose intents happen to produce the same
 * key (the same message id in two private chats) never share an order.
 */
export function storedIdempotencyKey(userId: bigint, key: string): string {
  return `${userId}:${key}`;
}

/** The order an intent placed already, or null: the answer to a replay. */
export async function findOrderByKey(
  db: Database | Tx,
  intent: { userId: bigint; idempotencyKey: string },
): Promise<OrderView | null> {
  const order = await db.order.findUnique({
    where: { idempotencyKey: storedIdempotencyKey(intent.userId, intent.idempotencyKey) },
    include: ORDER_INCLUDE,
  });
  return order ? orderView(order) : null;
}

/** The insert failed because a twin of the intent committed its order first: look it up. */
export function isKeyTaken(error: unknown): boolean {
  return violatedUniqueIndex(error) === UNIQUE.orderIdempotencyKey;
}
