import { Gauge, type Registry } from "prom-client";
import type { Database, Tx } from "@orderbot/db";

/**
 * Stock held by unpaid reservations (orders RESERVED or PAYING), per product. A hoarder with
 * many throwaway accounts can hold up to (units per line × open orders) per account; these
 * bound and measure what all of them together can hold of one product.
 *
 * Both queries read open orders through `orders_open_expires_at_idx` (partial, on the open
 * statuses) and their lines through the `(order_id, product_id)` key: their cost follows the
 * number of open orders, never the order history.
 */

/** The metric, by `sku` (alert OrderbotStockHeldUnpaid). */
export const STOCK_HOLD_METRICS = { heldUnpaid: "orderbot_stock_held_unpaid_ratio" } as const;

export interface HeldUnits {
  productId: number;
  sku: string;
  /** Units in open (unpaid) orders. */
  held: number;
  /** Units neither sold nor held: `products.stock`. */
  free: number;
  /** The most units unpaid orders may hold at this share: SQL `unpaid_hold_cap` (migration unpaid_hold_cap). */
  cap: number;
}

/**
 * The units of each product held unpaid, for the products given, and the cap on them at `share`:
 * what a refused placement tells the buyer is left (`orders/shortfall.ts`). The cap itself is
 * enforced under each product's row lock by the order lines' trigger (migration
 * order_lines_take_stock), with the same count and the same SQL function.
 */
export async function heldUnits(
  db: Tx | Database,
  productIds: readonly number[],
  share: number,
): Promise<HeldUnits[]> {
  if (productIds.length === 0) return [];
  return db.$queryRaw<HeldUnits[]>`
    SELECT h.*, unpaid_hold_cap(h.held, h.free, ${share}::numeric) AS cap
      FROM (SELECT p.id AS "productId", p.sku, p.stock AS free,
                   COALESCE((SELECT sum(oi.quantity) FROM orders o
                               JOIN order_items oi ON oi.order_id = o.id AND oi.product_id = p.id
                              WHERE o.status IN ('RESERVED', 'PAYING')), 0)::int AS held
              FROM products p
             WHERE p.id = ANY(${[...productIds]}::int[])) h`;
}

/**
 * Exports, at every scrape, the share of each product's unsold units that unpaid orders hold:
 * held / (held + free), for products with something held. One grouped query over open orders.
 * Registered once per registry (two shops on one registry share it).
 */
export function registerHeldUnpaidGauge(registry: Registry, db: Database): void {
  if (registry.getSingleMetric(STOCK_HOLD_METRICS.heldUnpaid)) return;
  new Gauge({
    name: STOCK_HOLD_METRICS.heldUnpaid,
    help: "Share of a product's unsold units held by unpaid (RESERVED or PAYING) orders",
    labelNames: ["sku"],
    registers: [registry],
    async collect() {
      // A scrape must not fail with the database: the last values stay until it answers again.
      const rows = await db.$queryRaw<{ sku: string; held: number; free: number }[]>`
        SELECT p.sku, h.held::int AS held, p.stock AS free
          FROM (SELECT oi.product_id, sum(oi.quantity) AS held FROM orders o
                  JOIN order_items oi ON oi.order_id = o.id
                 WHERE o.status IN ('RESERVED', 'PAYING')
                 GROUP BY oi.product_id) h
          JOIN products p ON p.id = h.product_id`.catch(() => null);
      if (rows === null) return;
      this.reset();
      for (const row of rows) {
        const total = row.held + row.free;
        if (total > 0) this.set({ sku: row.sku }, row.held / total);
      }
    },
  });
}
