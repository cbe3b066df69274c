import type { Tx } from "@orderbot/db";

/**
 * Revokes, in the refund's transaction, every item a refunded order received: it keeps its
 * order (the database never lets an assigned item change order) and is never handed out again.
 * Nothing goes back to stock: the codes left the shop (stock/ledger.ts leaves a delivered digital
 * line out of RESTOCK). The order's delivery messages still queued are withdrawn with them, so a
 * worker that was paused or backed off never sends refunded codes. Idempotent: a revoked item
 * stays as it is.
 */
export async function revokeOrderItems(tx: Tx, orderId: number, now: Date): Promise<number> {
  const revoked = await tx.$executeRaw`
    UPDATE digital_items SET revoked_at = ${now}
     WHERE order_id = ${orderId} AND revoked_at IS NULL`;
  await withdrawQueuedDelivery(tx, orderId);
  return revoked;
}

/**
 * Deletes the order's `delivery:<order>:<part>` messages not sent yet. One a relay has claimed
 * and is sending right now may still go out: a message on its way cannot be called back.
 */
async function withdrawQueuedDelivery(tx: Tx, orderId: number): Promise<number> {
  return tx.$executeRaw`
    DELETE FROM outbox_messages m USING orders o
     WHERE o.id = ${orderId} AND m.status = 'PENDING'
       AND m.dedupe_key LIKE 'delivery:' || o.public_id || ':%'`;
}
