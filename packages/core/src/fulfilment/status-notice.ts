// The customer's notice of a status change, recorded in the transaction that made the change.
import type { Tx } from "@orderbot/db";
import { recordEvent } from "../events/record.ts";

/** The steps an operator moves a paid order through, each told to its customer. */
export type FulfilmentStatus = "PROCESSING" | "SHIPPED" | "DELIVERED";

/**
 * The key of the notice's delivery (the chat is appended): one per order and status, so a re-run,
 * a replayed update or a second operator tells the customer nothing new.
 */
export function statusNoticeKey(publicId: string, status: FulfilmentStatus): string {
  return `status:${publicId}:${status}`;
}

/**
 * Records `order.moved` (with the note, e.g. a tracking number): the recipient rule tells the
 * order's chat. Returns 1 when recorded now, 0 when it was recorded before.
 */
export async function queueStatusNotice(
  tx: Tx,
  orderId: string,
  status: FulfilmentStatus,
  note: string | null,
): Promise<number> {
  const event = { kind: "order.moved", orderId, status, note: note ?? "" } as const;
  const keys = {
    dedupeKey: `order.moved:${orderId}:${status}`,
    deliveryKey: statusNoticeKey(orderId, status),
  };
  return recordEvent(tx, event, keys, undefined);
}
