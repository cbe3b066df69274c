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
 *   (RESERVED, PAYING, PAID, FULFILLED), 0 once released (CANCELLED, EXPIRED, REFUNDED);
 * - at most one CAPTURED payment per order; a PAID/FULFILLED order has exactly one, of its total;
 *   no other order has one (except a FULFILLED order whose payment Telegram refunded afterwards:
 *   the goods went out, the money came back, and the payment is REFUNDED by `telegram`);
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
    { public_id: string; status: string; quantity: number; net: number }[]
  >(`
    SELECT o.public_id, o.status::text AS status, i.quantity,
           COALESCE((SELECT SUM(m.delta) FROM stock_movements m WHERE m.order_id = o.id AND m.product_id = i.product_id), 0)::int AS net
    FROM orders o JOIN order_items i ON i.order_id = o.id`);
  for (const row of perItem) {
    const holds = ["RESERVED", "PAYING", "PAID", "FULFILLED"].includes(row.status);
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
    SELECT o.public_id, o.status::text AS status, o.total_minor AS total,
           COUNT(p.id) FILTER (WHERE p.status = 'CAPTURED')::int AS captured,
           COALESCE(SUM(p.amount_minor) FILTER (WHERE p.status = 'CAPTURED'), 0)::int AS captured_sum,
           bool_or(p.status = 'REFUNDED' AND p.refunded_by = 'telegram') AS refunded_outside
    FROM orders o LEFT JOIN payments p ON p.order_id = o.id GROUP BY o.id`);
  for (const row of payments) {
    const paid =
      row.status === "PAID" || (row.status === "FULFILLED" && row.refunded_outside !== true);
    expect(row.captured, `captured payments of order ${row.public_id} (${row.status})`).toBe(
      paid ? 1 : 0,
    );
    if (paid) expect(row.captured_sum).toBe(row.total);
  }
  const [money] = await db.$queryRawUnsafe<{ captured: number; paid: number }[]>(`
    SELECT (SELECT COALESCE(SUM(amount_minor), 0) FROM payments WHERE status = 'CAPTURED')::int AS captured,
           (SELECT COALESCE(SUM(total_minor), 0) FROM orders o WHERE status IN ('PAID', 'FULFILLED')
               AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.order_id = o.id AND p.status = 'REFUNDED'
                                 AND p.refunded_by = 'telegram' AND o.status = 'FULFILLED'))::int AS paid`);
  expect(money!.captured).toBe(money!.paid);
}
