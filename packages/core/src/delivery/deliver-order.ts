import type { Tx } from "@orderbot/db";
import type { CoreDeps } from "../deps.ts";
import { assignPickedItems, type PickedItems } from "./pick-items.ts";
import { queueDelivery } from "./queue-delivery.ts";

/**
 * The digital half of a payment that pays for its order, in the payment's transaction: the
 * picked items become the order's and their delivery is queued. Rolled back with the payment if
 * anything after fails, so an item is never assigned without the payment that bought it.
 * Returns what the operators' paid-order alert may show of them: their masked tails
 * (["••••1111", "••••2222"]), none when the order has none.
 */
export async function deliverOrder(
  tx: Tx,
  deps: Pick<CoreDeps, "clock" | "logger">,
  order: { id: number; publicId: string; chatId: bigint },
  picked: PickedItems,
): Promise<string[]> {
  const assigned = await assignPickedItems(tx, order.id, picked, deps.clock.now());
  if (assigned === 0) return [];
  await queueDelivery(tx, order);
  // A count only: the codes themselves never reach a log line.
  deps.logger.info({ order: order.publicId, items: assigned }, "digital items assigned");
  const items = await tx.digitalItem.findMany({
    where: { orderId: order.id },
    orderBy: { id: "asc" },
    select: { secret: true },
  });
  return items.map((item) => maskedTail(item.secret));
}

/**
 * The last four characters of a code, only when that leaves most of it hidden (12 or more
 * characters): enough for an operator to tell codes apart, never enough to use one.
 */
export function maskedTail(secret: string): string {
  const chars = [...secret];
  return chars.length >= 12 ? `••••${chars.slice(-4).join("")}` : "••••";
}
