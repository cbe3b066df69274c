import type { Database } from "@orderbot/db";

export const INITIAL_STOCK = 1000;

/**
 * `orders` reservations spread over `products` products, inserted set-based (generate_series) the
 * way core would have left them: each order holds 1-3 units of one product, with its RESERVE
 * ledger row, and the product's stock is what the ledger says. Not due until `makeDue`.
 */
export async function seedReservations(
  db: Database,
  options: { orders: number; products: number; prefix?: string },
): Promise<void> {
  const prefix = options.prefix ?? "MASS";
  await db.$executeRawUnsafe(
    `INSERT INTO products (sku, title_en, title_zh, price_minor, currency, stock, updated_at)
     SELECT '${prefix}-' || g, 'Product ' || g, '商品 ' || g, 10, 'XTR', ${INITIAL_STOCK}, timezone('UTC', now())
       FROM generate_series(1, $1::int) g`,
    options.products,
  );
  await db.$executeRawUnsafe(
    `INSERT INTO stock_movements (product_id, delta, reason, actor)
     SELECT id, stock, 'SEED', 'test' FROM products WHERE sku LIKE '${prefix}-%'`,
  );
  await db.$executeRawUnsafe(
    `INSERT INTO orders (public_id, user_id, chat_id, status, total_minor, currency, expires_at, idempotency_key, updated_at)
     SELECT '${prefix}' || lpad(g::text, 8, '0'), 7000000000 + g % 5000, 7000000000 + g % 5000, 'RESERVED',
            10 * (1 + g % 3), 'XTR', timezone('UTC', now()) + interval '1 day', '${prefix}-idem-' || g, timezone('UTC', now())
       FROM generate_series(1, $1::int) g`,
    options.orders,
  );
  await db.$executeRawUnsafe(
    `INSERT INTO order_items (order_id, product_id, quantity, unit_price_minor)
     SELECT o.id, p.id, o.total_minor / 10, 10
       FROM orders o
       JOIN products p ON p.sku = '${prefix}-' || (1 + (substr(o.public_id, ${prefix.length + 1})::int % $1::int))
      WHERE o.public_id LIKE '${prefix}%'`,
    options.products,
  );
  await db.$executeRawUnsafe(
    `INSERT INTO stock_movements (product_id, order_id, delta, reason, actor)
     SELECT i.product_id, i.order_id, -i.quantity, 'RESERVE', 'user'
       FROM order_items i JOIN orders o ON o.id = i.order_id WHERE o.public_id LIKE '${prefix}%'`,
  );
  await db.$executeRawUnsafe(
    `UPDATE products p SET stock = p.stock - r.held
       FROM (SELECT i.product_id, sum(i.quantity)::int AS held FROM order_items i GROUP BY i.product_id) r
      WHERE r.product_id = p.id AND p.sku LIKE '${prefix}-%'`,
  );
}

/** Every open reservation is now past its expiry. */
export async function makeDue(db: Database): Promise<number> {
  return db.$executeRaw`UPDATE orders SET expires_at = timezone('UTC', now()) - interval '1 minute' WHERE status = 'RESERVED'`;
}

export interface ExpiryCheck {
  orders: number;
  expired: number;
  /** Products whose stock is not back to its initial level. */
  stockNotRestored: number;
  /** Products whose stock differs from the sum of their ledger. */
  ledgerMismatch: number;
  releaseRows: number;
  /** Orders with more than one RELEASE row for a product (the unique key forbids it). */
  releasedTwice: number;
  /** Order lines with no RELEASE row although the order is EXPIRED. */
  notReleased: number;
  notifications: number;
}

export async function checkExpiry(db: Database): Promise<ExpiryCheck> {
  const [row] = await db.$queryRawUnsafe<ExpiryCheck[]>(
    `SELECT
       (SELECT count(*)::int FROM orders) AS orders,
       (SELECT count(*)::int FROM orders WHERE status = 'EXPIRED') AS expired,
       (SELECT count(*)::int FROM products WHERE stock <> ${INITIAL_STOCK}) AS "stockNotRestored",
       (SELECT count(*)::int FROM products p
         WHERE p.stock <> (SELECT coalesce(sum(delta), 0) FROM stock_movements m WHERE m.product_id = p.id)) AS "ledgerMismatch",
       (SELECT count(*)::int FROM stock_movements WHERE reason = 'RELEASE') AS "releaseRows",
       (SELECT count(*)::int FROM (SELECT 1 FROM stock_movements WHERE reason = 'RELEASE'
          GROUP BY order_id, product_id HAVING count(*) > 1) d) AS "releasedTwice",
       (SELECT count(*)::int FROM order_items i JOIN orders o ON o.id = i.order_id
         WHERE o.status = 'EXPIRED' AND NOT EXISTS (SELECT 1 FROM stock_movements m
           WHERE m.order_id = i.order_id AND m.product_id = i.product_id AND m.reason = 'RELEASE' AND m.delta = i.quantity)) AS "notReleased",
       (SELECT count(*)::int FROM outbox_messages WHERE dedupe_key LIKE 'expired:%') AS notifications`,
  );
  return row!;
}

/**
 * Records which process wrote each RELEASE ledger row (the connection's application_name) and
 * when, from inside the database: a trigger, in the writing transaction, so rows of a transaction
 * that rolled back vanish with it. Give each worker process its own application_name in DATABASE_URL.
 */
export async function installReleaseAudit(db: Database): Promise<void> {
  await db.$executeRawUnsafe(
    `CREATE TABLE release_audit (app text NOT NULL, order_id int, at timestamptz NOT NULL DEFAULT clock_timestamp())`,
  );
  await db.$executeRawUnsafe(
    `CREATE FUNCTION audit_release() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       INSERT INTO release_audit (app, order_id) VALUES (current_setting('application_name'), NEW.order_id);
       RETURN NEW;
     END $$`,
  );
  await db.$executeRawUnsafe(
    `CREATE TRIGGER release_audit AFTER INSERT ON stock_movements FOR EACH ROW WHEN (NEW.reason = 'RELEASE') EXECUTE FUNCTION audit_release()`,
  );
}

export async function releasesBy(db: Database): Promise<Record<string, number>> {
  const rows = await db.$queryRawUnsafe<{ app: string; n: number }[]>(
    `SELECT app, count(*)::int AS n FROM release_audit GROUP BY app`,
  );
  return Object.fromEntries(rows.map((r) => [r.app, r.n]));
}

export function withAppName(url: string, app: string): string {
  const u = new URL(url);
  u.searchParams.set("application_name", app);
  return u.toString();
}
