// The customer's notice of a status change, queued in the transaction that made the change.
import type { OrderStatus, Tx } from "@orderbot/db";
import { enqueueOutbox } from "../outbox/messages.ts";

/**
 * One notice per order and status: a re-run, a replayed update or a second operator queues
 * nothing new, because the outbox's dedupe key is unique.
 */
export function statusNoticeKey(publicId: string, status: OrderStatus): string {
  return `status:${publicId}:${status}`;
}

/**
 * Queues "your order is now STATUS" (with the note, e.g. a tracking number) to the order's chat.
 * Returns 1 when queued now, 0 when it was queued before.
 */
export async function queueStatusNotice(
  tx: Tx,
  order: { publicId: string; chatId: bigint },
  status: OrderStatus,
  note: string | null,
): Promise<number> {
  return enqueueOutbox(tx, [
    {
      dedupeKey: statusNoticeKey(order.publicId, status),
      chatId: order.chatId,
      method: "notify",
      payload: {
        template: "order-status",
        // `status` is shown in the glossary's word; `step` is what the message selects on.
        params: {
          orderId: order.publicId,
          status,
          step: status,
          note: note ?? "",
          hasNote: note ? "yes" : "no",
        },
      },
    },
  ]);
}
