import type { Tx } from "@orderbot/db";

export type OrderStockReason = "RELEASE" | "RESTOCK" | "RERESERVE";

/** Stock returns to sale for RELEASE and RESTOCK, and is taken again for RERESERVE. */
const SIGN: Record<OrderStockReason, 1 | -1> = { RELEASE: 1, RESTOCK: 1, RERESERVE: -1 };

/**
 * Row-locks the products of these orders in id order. Every transaction that touches several
 * products locks them in this order (placeOrder decrements in id order too), so two of them never
 * wait on each other in a cycle. NO KEY UPDATE is the lock an UPDATE of the stock takes anyway: it
 * does not block the foreign-key checks of orders being placed for the same products.
 */
export async function lockProductsOfOrders(
  tx: Tx,
  orderIds: number[],
): Promise<{ id: number; stock: number }[]> {
  if (orderIds.length === 0) return [];
  return tx.$queryRaw<{ id: number; stock: number }[]>`
    SELECT p.id, p.stock FROM products p
    WHERE p.id IN (SELECT i.product_id FROM order_items i WHERE i.order_id = ANY(${orderIds}::int[]))
    ORDER BY p.id
    FOR NO KEY UPDATE`;
}

/**
 * Moves the stock of these orders' items for one ledger reason, driven by the ledger: a row is
 * inserted per (order, product, reason) unless one exists (the unique key), and each product's
 * stock changes by exactly the sum of the rows actually inserted — one UPDATE per product. So
 * calling it twice, or from two workers, moves the stock once.
 *
 * The caller has locked the products (`lockProductsOfOrders`) and, for RERESERVE, checked that
 * the stock suffices (the CHECK constraint would otherwise abort the transaction).
 */
export async function moveOrderStock(
  tx: Tx,
  orderIds: number[],
  reason: OrderStockReason,
  actor: string,
): Promise<{ productId: number; delta: number }[]> {
  if (orderIds.length === 0) return [];
  const sign = SIGN[reason];
  return tx.$queryRaw<{ productId: number; delta: number }[]>`
    WITH moved AS (
      INSERT INTO stock_movements (product_id, order_id, delta, reason, actor)
      SELECT i.product_id, i.order_id, ${sign}::int * i.quantity, ${reason}::"StockReason", ${actor}
      FROM order_items i WHERE i.order_id = ANY(${orderIds}::int[])
        -- A refunded digital line whose items were delivered is not restocked: its codes are
        -- revoked, never sold again (delivery/revoke-items.ts).
        AND (${reason} <> 'RESTOCK' OR NOT EXISTS (
          SELECT 1 FROM digital_items d WHERE d.order_id = i.order_id AND d.product_id = i.product_id))
      ON CONFLICT (order_id, product_id, reason) DO NOTHING
      RETURNING product_id, delta
    ), per_product AS (
      SELECT product_id, SUM(delta)::int AS delta FROM moved GROUP BY product_id
    )
    UPDATE products p
    SET stock = p.stock + per_product.delta, version = p.version + 1, updated_at = now() AT TIME ZONE 'UTC'
    FROM per_product WHERE p.id = per_product.product_id
    RETURNING p.id AS "productId", per_product.delta AS delta`;
}
