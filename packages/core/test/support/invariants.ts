import type { Database } from "@orderbot/db";
import { expect } from "vitest";
import { LEGAL_TRANSITIONS } from "../../src/index.ts";

/**
 * Records every order status change in a table of the test database (a trigger), so a test can
 * prove afterwards that only legal transitions happened, whoever made them.
 */
export async function recordTransitions(db: Database): Promise<void> {
  await db.$executeRawUnsafe(
    `CREATE TABLE IF NOT EXISTS test_order_transitions (order_id int, from_status text, to_status text)`,
  );
  await db.$executeRawUnsafe(`
    CREATE OR REPLACE FUNCTION test_record_transition() RETURNS trigger AS $$
    BEGIN
      INSERT INTO test_order_transitions VALUES (NEW.id, OLD.status::text, NEW.status::text);
      RETURN NEW;
    END $$ LANGUAGE plpgsql`);
  await db.$executeRawUnsafe(`DROP TRIGGER IF EXISTS test_order_transitions ON orders`);
  await db.$executeRawUnsafe(`
    CREATE TRIGGER test_order_transitions AFTER UPDATE OF status ON orders
    FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION test_record_transition()`);
}

export async function illegalTransitions(db: Database): Promise<string[]> {
  const rows = await db.$queryRawUnsafe<{ from_status: string; to_status: string; n: bigint }[]>(
    `SELECT from_status, to_status, count(*) AS n FROM test_order_transitions GROUP BY 1, 2`,
  );
  return rows
    .filter(
      (r) =>
        !(LEGAL_TRANSITIONS as Record<string, readonly string[]>)[r.from_status]?.includes(
          r.to_status,
        ),
    )
    .map((r) => `${r.from_status} -> ${r.to_status} (${r.n})`);
}

/**
 * Every invariant of the shop, checked from the database alone:
 * - for every product, stock = sum(ledger) and stock >= 0;
 * - every order's ledger nets to what its status says: -quantity per item while it holds stock
 *   (RESERVED, PAYING, PAID, PROCESSING, SHIPPED, DELIVERED), 0 once released (CANCELLED,
 *   EXPIRED, REFUNDED);
 * - at most one CAPTURED payment per order; a PAID/PROCESSING/SHIPPED/DELIVERED order has exactly
 *   one, of its total; no other order has one (except a SHIPPED or DELIVERED order refunded after
 *   its goods went out: the timeline records that refund, and its payment is no longer CAPTURED);
 * - the timeline: every order that moved has one entry per status reached, the last one its
 *   status; one status notice per order and status;
 * - money: captured payments sum to the totals of paid orders (those same orders left out).
 */
export async function expectInvariants(db: Database): Promise<void> {
  const stock = await db.$queryRawUnsafe<{ sku: string; stock: number; ledger: number }[]>(`
    SELECT p.sku, p.stock, COALESCE(SUM(m.delta), 0)::int AS ledger
    FROM products p LEFT JOIN stock_movements m ON m.product_id = p.id GROUP BY p.id`);
  for (const row of stock) {
    expect(row.stock, `stock of ${row.sku}`).toBe(row.ledger);
    expect(row.stock).toBeGreaterThanOrEqual(0);
  }

  const perItem = await db.$queryRawUnsafe<
    { public_id: string; status: string; quantity: number; net: number; delivered: boolean }[]
  >(`
    SELECT o.public_id, o.status::text AS status, i.quantity,
           COALESCE((SELECT SUM(m.delta) FROM stock_movements m WHERE m.order_id = o.id AND m.product_id = i.product_id), 0)::int AS net,
           EXISTS (SELECT 1 FROM digital_items d WHERE d.order_id = o.id AND d.product_id = i.product_id) AS delivered
    FROM orders o JOIN order_items i ON i.order_id = o.id`);
  for (const row of perItem) {
    // A refunded digital line's codes were delivered (and revoked): its units never come back.
    const holds =
      ["RESERVED", "PAYING", "PAID", "PROCESSING", "SHIPPED", "DELIVERED"].includes(row.status) ||
      (row.status === "REFUNDED" && row.delivered);
    expect(row.net, `ledger of order ${row.public_id} (${row.status})`).toBe(
      holds ? -row.quantity : 0,
    );
  }

  const payments = await db.$queryRawUnsafe<
    {
      public_id: string;
      status: string;
      total: number;
      captured: number;
      captured_sum: number;
      refunded_outside: boolean | null;
    }[]
  >(`
    SELECT o.public_id, o.status::text AS status, o.total_minor + o.shipping_minor AS total,
           COUNT(p.id) FILTER (WHERE p.status = 'CAPTURED')::int AS captured,
           COALESCE(SUM(p.amount_minor) FILTER (WHERE p.status = 'CAPTURED'), 0)::int AS captured_sum,
           EXISTS (SELECT 1 FROM order_timeline t WHERE t.order_id = o.id AND t.event = 'refund') AS refunded_outside
    FROM orders o LEFT JOIN payments p ON p.order_id = o.id GROUP BY o.id`);
  for (const row of payments) {
    const shipped = row.status === "SHIPPED" || row.status === "DELIVERED";
    const paid =
      row.status === "PAID" ||
      row.status === "PROCESSING" ||
      (shipped && row.refunded_outside !== true);
    expect(row.captured, `captured payments of order ${row.public_id} (${row.status})`).toBe(
      paid ? 1 : 0,
    );
    if (paid) expect(row.captured_sum).toBe(row.total);
  }
  const [money] = await db.$queryRawUnsafe<{ captured: number; paid: number }[]>(`
    SELECT (SELECT COALESCE(SUM(amount_minor), 0) FROM payments WHERE status = 'CAPTURED')::int AS captured,
           (SELECT COALESCE(SUM(total_minor + shipping_minor), 0) FROM orders o
             WHERE status IN ('PAID', 'PROCESSING', 'SHIPPED', 'DELIVERED')
               AND NOT EXISTS (SELECT 1 FROM order_timeline t WHERE t.order_id = o.id AND t.event = 'refund'))::int AS paid`);
  expect(money!.captured).toBe(money!.paid);

  // Every status change went through the timeline: an order that moved ends where its last move
  // took it, and reached each status at most once.
  const timeline = await db.$queryRawUnsafe<
    { public_id: string; status: string; last: string | null }[]
  >(`
    SELECT o.public_id, o.status::text AS status,
           (SELECT t.to_status::text FROM order_timeline t WHERE t.order_id = o.id AND t.event = 'move'
             ORDER BY t.id DESC LIMIT 1) AS last
    FROM orders o
    WHERE o.status <> 'RESERVED'`);
  for (const row of timeline)
    expect(row.last, `last timeline move of order ${row.public_id}`).toBe(row.status);
  // One status notice per fulfilment move, none without one (the outbox key is per order and
  // status: a move made twice, or a notice queued by anything else, shows here).
  const notices = await db.$queryRawUnsafe<{ move: string | null; notice: string | null }[]>(`
    WITH moves AS (
      SELECT 'status:' || o.public_id || ':' || t.to_status::text AS key FROM order_timeline t
        JOIN orders o ON o.id = t.order_id
       WHERE t.event = 'move' AND t.to_status IN ('PROCESSING', 'SHIPPED', 'DELIVERED')
         AND t.actor <> 'migration'),
    notices AS (SELECT dedupe_key AS key FROM outbox_messages WHERE dedupe_key LIKE 'status:%')
    SELECT m.key AS move, n.key AS notice FROM moves m FULL JOIN notices n ON n.key = m.key
     WHERE m.key IS NULL OR n.key IS NULL`);
  expect(notices, "fulfilment moves and status notices differ").toEqual([]);
}
