import type { Tx } from "@orderbot/db";

/**
 * Revokes, in the refund's transaction, every item a refunded order received: it keeps its
 * order (the database never lets an assigned item change order) and is never handed out again.
 * Nothing goes back to stock: the codes left the shop (stock/ledger.ts leaves a delivered digital
 * line out of RESTOCK). Idempotent: a revoked item stays as it is.
 */
export async function revokeOrderItems(tx: Tx, orderId: number, now: Date): Promise<number> {
  return tx.$executeRaw`
    UPDATE digital_items SET revoked_at = ${now}
     WHERE order_id = ${orderId} AND revoked_at IS NULL`;
}
