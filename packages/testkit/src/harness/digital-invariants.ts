import type { Database } from "@orderbot/db";
import type { InvariantResult } from "./invariants.ts";

type Row = Record<string, unknown>;

const PAID = `('PAID','PROCESSING','SHIPPED','DELIVERED')`;

/**
 * The digital pool's invariants: no code delivered twice (each item in at most one delivery
 * message, and only to the order it is assigned to), and each order holds exactly what it paid
 * for (a paid line of a product with a pool its quantity of items, an unpaid order none, a
 * refunded one only revoked items).
 */
export async function checkDigitalDelivery(db: Database): Promise<InvariantResult[]> {
  const q = (sql: string) => db.$queryRawUnsafe<Row[]>(sql);
  const twice = await q(`
    WITH sent AS (
      SELECT split_part(m.dedupe_key, ':', 2) AS order_public_id,
             unnest(string_to_array(m.payload->'params'->>'itemIds', ','))::int AS item_id
        FROM outbox_messages m WHERE m.dedupe_key LIKE 'delivery:%')
    SELECT s.item_id, COUNT(*)::int AS messages,
           bool_or(o.public_id IS DISTINCT FROM s.order_public_id) AS foreign
      FROM sent s LEFT JOIN digital_items d ON d.id = s.item_id LEFT JOIN orders o ON o.id = d.order_id
     GROUP BY s.item_id
    HAVING COUNT(*) > 1 OR bool_or(o.public_id IS DISTINCT FROM s.order_public_id)`);
  const held = await q(`
    SELECT o.public_id, o.status::text AS status, i.product_id, i.quantity,
           COUNT(d.id)::int AS items, COUNT(d.id) FILTER (WHERE d.revoked_at IS NULL)::int AS live
      FROM orders o JOIN order_items i ON i.order_id = o.id
      JOIN products p ON p.id = i.product_id
      LEFT JOIN digital_items d ON d.order_id = o.id AND d.product_id = i.product_id
     WHERE p.kind = 'DIGITAL' OR d.id IS NOT NULL
     GROUP BY o.id, i.id
    HAVING CASE
      -- None is right only for a payment made before the product had a pool.
      WHEN o.status IN ${PAID} THEN COUNT(d.id) NOT IN (0, i.quantity) OR (COUNT(d.id) = 0 AND EXISTS (
        SELECT 1 FROM digital_items e JOIN payments pay ON pay.order_id = o.id AND pay.status = 'CAPTURED'
         WHERE e.product_id = i.product_id AND e.created_at < pay.created_at))
      WHEN o.status = 'REFUNDED' THEN COUNT(d.id) FILTER (WHERE d.revoked_at IS NULL) > 0
      ELSE COUNT(d.id) > 0 END`);
  return [
    {
      name: "no code delivered twice: each item in one delivery at most, to its own order",
      ok: twice.length === 0,
      violations: twice.length,
      examples: twice
        .slice(0, 5)
        .map((r) =>
          r.foreign
            ? `item ${r.item_id}: delivered to an order it is not assigned to`
            : `item ${r.item_id}: in ${r.messages} delivery messages`,
        ),
    },
    {
      name: "each paid digital line holds exactly its quantity of codes, unpaid orders none",
      ok: held.length === 0,
      violations: held.length,
      examples: held
        .slice(0, 5)
        .map(
          (r) =>
            `order ${r.public_id} (${r.status}) product ${r.product_id}: ${r.items} items (${r.live} live), quantity ${r.quantity}`,
        ),
    },
  ];
}
