// What an order's move tells its customer's chat, queued in the move's transaction. The events
// name the order and its new state; the conversation finds the messages that show the order when
// the relay sends them (@orderbot/conversation, order-messages/).
import type { OrderStatus, Tx } from "@orderbot/db";
import { enqueueOutbox, type OutboxMessageInput } from "../outbox/messages.ts";

/**
 * Moves the customer did not make in their chat, so the message showing the order must be brought
 * up to date for them: paying and cancelling are answered by the bot where they happen.
 */
const MADE_FOR_THE_CUSTOMER: ReadonlySet<OrderStatus> = new Set([
  "EXPIRED",
  "REFUNDED",
  "PROCESSING",
  "SHIPPED",
  "DELIVERED",
]);

/** States in which an order can no longer be paid: its invoice is void. */
const UNPAYABLE: ReadonlySet<OrderStatus> = new Set(["EXPIRED", "CANCELLED", "REFUNDED"]);

/** Once per order and state: a replayed move queues nothing new. */
export const cardRefreshKey = (publicId: string, status: OrderStatus) =>
  `card:${publicId}:${status}`;

/** The events of one order's move to `status`: none for most moves. */
export function moveEvents(
  order: { publicId: string; chatId: bigint },
  status: OrderStatus,
): OutboxMessageInput[] {
  const events: OutboxMessageInput[] = [];
  if (MADE_FOR_THE_CUSTOMER.has(status))
    events.push({
      dedupeKey: cardRefreshKey(order.publicId, status),
      chatId: order.chatId,
      method: "notify",
      payload: { template: "order-card", params: { orderId: order.publicId, status } },
    });
  if (UNPAYABLE.has(status))
    events.push({
      dedupeKey: `invoice-void:${order.publicId}:${status}`,
      chatId: order.chatId,
      method: "voidInvoice",
      payload: { orderId: order.publicId },
    });
  return events;
}

/** In the transaction that moved the order (orders/transitions.ts). */
export async function queueMoveEvents(tx: Tx, orderId: number, status: OrderStatus): Promise<void> {
  if (!MADE_FOR_THE_CUSTOMER.has(status) && !UNPAYABLE.has(status)) return;
  const order = await tx.order.findUnique({
    where: { id: orderId },
    select: { publicId: true, chatId: true },
  });
  if (order) await enqueueOutbox(tx, moveEvents(order, status));
}
