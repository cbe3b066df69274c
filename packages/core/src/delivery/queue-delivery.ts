import type { Tx } from "@orderbot/db";
import { enqueueOutbox, type OutboxMessageInput } from "../outbox/messages.ts";

/**
 * The most characters of codes in one message: with the words around them it stays under
 * Telegram's 4096 per message. A code is at most this long (load-codes.ts, and the CHECK of
 * migration 20261204020000_digital_items), so every code fits a message of its own.
 */
export const DELIVERY_TEXT_LIMIT = 3500;

/** The outbox key of part `part` (from 1) of an order's delivery: once per order and part. */
export const deliveryKey = (orderPublicId: string, part: number): string =>
  `delivery:${orderPublicId}:${part}`;

/**
 * Queues, in the payment's transaction, the message(s) that give the customer the items assigned
 * to the order: one outbox row per part under a key of the order, so a re-delivered
 * successful_payment, a second bot process or a replay of this transaction queues nothing twice.
 * The codes travel in the payload (rendered by the worker when sent) and nowhere else: no log line
 * or metric carries them. Returns the number of items queued.
 */
export async function queueDelivery(
  tx: Tx,
  order: { id: number; publicId: string; chatId: bigint },
): Promise<number> {
  const items = await tx.digitalItem.findMany({
    where: { orderId: order.id, revokedAt: null },
    orderBy: { id: "asc" },
    select: { id: true, secret: true },
  });
  if (items.length === 0) return 0;
  const parts = chunk(items);
  const messages: OutboxMessageInput[] = parts.map((part, index) => ({
    dedupeKey: deliveryKey(order.publicId, index + 1),
    chatId: order.chatId,
    method: "notify",
    payload: {
      template: "digital-delivery",
      params: {
        orderId: order.publicId,
        codes: part.map((item) => item.secret).join("\n"),
        count: part.length,
        part: index + 1,
        parts: parts.length,
        single: parts.length === 1 ? "yes" : "no",
        // Which items this message carries: the "no code delivered twice" check reads them.
        itemIds: part.map((item) => item.id).join(","),
      },
    },
  }));
  await enqueueOutbox(tx, messages);
  return items.length;
}

/** Items in runs whose codes, one a line, stay within DELIVERY_TEXT_LIMIT characters. */
function chunk<T extends { secret: string }>(items: T[]): T[][] {
  const parts: T[][] = [];
  let current: T[] = [];
  let length = 0;
  for (const item of items) {
    const added = item.secret.length + (current.length > 0 ? 1 : 0);
    if (current.length > 0 && length + added > DELIVERY_TEXT_LIMIT) {
      parts.push(current);
      current = [];
      length = 0;
    }
    length += current.length > 0 ? item.secret.length + 1 : item.secret.length;
    current.push(item);
  }
  if (current.length > 0) parts.push(current);
  return parts;
}
