import type { Database } from "@orderbot/db";
import { verdict, type InvariantResult } from "./verdict.ts";

/** Paid orders whose goods went out: a refund leaves them where they are, with a timeline entry. */
export const SHIPPED = `('SHIPPED','DELIVERED')`;
/** An order refunded after its goods went out (the timeline's `refund` entry). */
export const REFUNDED_AFTER_SHIPPING = `EXISTS (SELECT 1 FROM order_timeline t WHERE t.order_id = o.id AND t.event = 'refund')`;

/**
 * The order timeline's invariants: every status change went through it, shipped goods were paid
 * for, and each fulfilment move queued exactly one status notice.
 */
export async function checkTimeline(db: Database): Promise<InvariantResult[]> {
  const q = (sql: string) => db.$queryRawUnsafe<Record<string, unknown>[]>(sql);
  return [
    verdict(
      "every order that moved ends where its last timeline move took it",
      await q(`SELECT o.public_id, o.status::text AS status, t.last
               FROM orders o LEFT JOIN LATERAL (
                 SELECT t.to_status::text AS last FROM order_timeline t
                  WHERE t.order_id = o.id AND t.event = 'move' ORDER BY t.id DESC LIMIT 1) t ON true
               WHERE o.status <> 'RESERVED' AND t.last IS DISTINCT FROM o.status::text`),
      (r) => `order ${r.public_id} is ${r.status}, its last move says ${r.last ?? "nothing"}`,
    ),
    verdict(
      "every shipped or delivered order was paid, got there by a recorded move, and was never refunded without a timeline entry",
      await q(`SELECT o.public_id, o.status::text AS status,
                      EXISTS (SELECT 1 FROM payments p WHERE p.order_id = o.id) AS paid,
                      EXISTS (SELECT 1 FROM payments p WHERE p.order_id = o.id AND p.status = 'CAPTURED') AS captured,
                      ${REFUNDED_AFTER_SHIPPING} AS refund_recorded,
                      EXISTS (SELECT 1 FROM order_timeline t WHERE t.order_id = o.id AND t.event = 'move'
                                AND t.to_status = o.status) AS moved
               FROM orders o WHERE o.status IN ${SHIPPED}`).then((rows) =>
        rows.filter((r) => !r.paid || !r.moved || (!r.captured && !r.refund_recorded)),
      ),
      (r) =>
        `order ${r.public_id} (${r.status}): ${!r.paid ? "never paid" : !r.moved ? "no timeline move to it" : "refunded without a timeline entry"}`,
    ),
    verdict(
      "one status notice per order and status: each fulfilment move queued one, nothing else did",
      await q(`WITH moves AS (
                 SELECT 'status:' || o.public_id || ':' || t.to_status::text AS key FROM order_timeline t
                   JOIN orders o ON o.id = t.order_id
                  WHERE t.event = 'move' AND t.to_status IN ('PROCESSING','SHIPPED','DELIVERED')
                    AND t.actor <> 'migration'),
               -- A notice is an order.moved event, or a row the previous release queued.
               notices AS (SELECT delivery_key AS key FROM events WHERE kind = 'order.moved'
                           UNION ALL
                           SELECT dedupe_key FROM outbox_messages WHERE dedupe_key LIKE 'status:%')
               SELECT COALESCE(m.key, n.key) AS key, m.key IS NULL AS orphan
               FROM moves m FULL JOIN notices n ON n.key = m.key
               WHERE m.key IS NULL OR n.key IS NULL`),
      (r) => `${r.key}: ${r.orphan ? "a notice without its move" : "a move without its notice"}`,
    ),
  ];
}
