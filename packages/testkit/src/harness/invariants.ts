import type { Database } from "@orderbot/db";
import { checkChargesAccounted, type ChargeLedger } from "./charges.ts";
import { checkDigitalDelivery } from "./digital-invariants.ts";
import { checkTimeline, REFUNDED_AFTER_SHIPPING, SHIPPED } from "./timeline-invariants.ts";
import { verdict, type InvariantResult } from "./verdict.ts";

export type { InvariantResult } from "./verdict.ts";

export interface InvariantInputs {
  /**
   * Reservations may not outlive expires_at (+ grace for PAYING) by more than this (ms). Left out
   * when the shop ran on a clock of its own (core's tests): the database's now() is not its "now".
   */
  expirySlackMs?: number;
  /** The payment grace a PAYING order gets past expires_at (ms). */
  paymentGraceMs?: number;
  /** What the fake Telegram recorded, when the run went through it. */
  telegram?: {
    /** telegram_payment_charge_id of every successful_payment the users sent. */
    chargeIds: string[];
    /** telegram_payment_charge_id of every refundStarPayment the bot or worker called. */
    refundedChargeIds: string[];
    /** Only payments recorded since then come from this kit (a database that outlives runs, like the demo's). */
    since?: Date;
  };
  /** When true, the outbox must be drained: nothing PENDING (DEAD rows are allowed). */
  outboxDrained?: boolean;
  /** Telegram's own ledger of the run's charges and refunds: every charge must be accounted for. */
  charges?: ChargeLedger;
}

type Row = Record<string, unknown>;

const HELD = `('RESERVED','PAYING','PAID','PROCESSING','SHIPPED','DELIVERED')`;

/**
 * The shop's invariants, checked from the database (and the fake Telegram's records when given)
 * after a run: what must hold whatever failed during it. Every check is a query that lists the
 * rows that break it, so a failure names its examples.
 */
export async function checkInvariants(
  db: Database,
  inputs: InvariantInputs = {},
): Promise<InvariantResult[]> {
  const q = (sql: string) => db.$queryRawUnsafe<Row[]>(sql);
  const results: InvariantResult[] = [];

  results.push(
    verdict(
      "stock equals the ledger sum and is >= 0",
      await q(`SELECT p.sku, p.stock, COALESCE(SUM(m.delta), 0)::int AS ledger
               FROM products p LEFT JOIN stock_movements m ON m.product_id = p.id
               GROUP BY p.id HAVING p.stock <> COALESCE(SUM(m.delta), 0) OR p.stock < 0`),
      (r) => `${r.sku}: stock ${r.stock}, ledger ${r.ledger}`,
    ),
  );

  results.push(
    verdict(
      "no product is oversold: units held by orders never exceed units supplied",
      await q(`SELECT p.sku, COALESCE(s.supplied, 0)::int AS supplied, COALESCE(h.held, 0)::int AS held
               FROM products p
               LEFT JOIN (SELECT product_id, SUM(delta) AS supplied FROM stock_movements
                          WHERE reason IN ('SEED','ADJUST','IMPORT') GROUP BY product_id) s ON s.product_id = p.id
               LEFT JOIN (SELECT i.product_id, SUM(i.quantity) AS held FROM order_items i JOIN orders o ON o.id = i.order_id
                          WHERE o.status IN ${HELD} GROUP BY i.product_id) h ON h.product_id = p.id
               WHERE COALESCE(h.held, 0) > COALESCE(s.supplied, 0)`),
      (r) => `${r.sku}: ${r.held} units held by orders, ${r.supplied} supplied`,
    ),
  );

  results.push(
    verdict(
      // The total is after the promo code's discount (docs/architecture.md, Promo codes).
      "every order is well-formed: in a known state, with items, its total their sum",
      await q(`SELECT o.public_id, o.status::text AS status, o.total_minor, COALESCE(SUM(i.quantity * i.unit_price_minor), 0)::int AS items_total, COUNT(i.id)::int AS lines
               FROM orders o LEFT JOIN order_items i ON i.order_id = o.id
               GROUP BY o.id
               HAVING COUNT(i.id) = 0 OR o.total_minor + o.discount_minor <> COALESCE(SUM(i.quantity * i.unit_price_minor), 0)
                   OR o.status::text NOT IN ('RESERVED','PAYING','PAID','PROCESSING','SHIPPED','DELIVERED','CANCELLED','EXPIRED','REFUNDED')`),
      (r) =>
        `order ${r.public_id} (${r.status}): total ${r.total_minor}, items ${r.items_total} in ${r.lines} lines`,
    ),
  );

  results.push(
    verdict(
      "each order's stock is held exactly while it is open or paid",
      await q(`SELECT o.public_id, o.status, i.product_id, i.quantity, COALESCE(SUM(m.delta), 0)::int AS net
               FROM orders o JOIN order_items i ON i.order_id = o.id
               LEFT JOIN stock_movements m ON m.order_id = o.id AND m.product_id = i.product_id
               GROUP BY o.id, i.id
               HAVING COALESCE(SUM(m.delta), 0) <> CASE WHEN o.status IN ${HELD} THEN -i.quantity
                 -- A refunded digital line's codes were delivered and revoked: its units stay out.
                 WHEN o.status = 'REFUNDED' AND EXISTS (SELECT 1 FROM digital_items d
                   WHERE d.order_id = o.id AND d.product_id = i.product_id) THEN -i.quantity
                 ELSE 0 END`),
      (r) =>
        `order ${r.public_id} (${r.status}) product ${r.product_id}: net ${r.net}, quantity ${r.quantity}`,
    ),
  );

  results.push(
    verdict(
      "each paid order has exactly one captured payment, and nothing else has one",
      await q(`SELECT o.public_id, o.status, COUNT(p.id) FILTER (WHERE p.status = 'CAPTURED')::int AS captured
               FROM orders o LEFT JOIN payments p ON p.order_id = o.id
               GROUP BY o.id
               HAVING COUNT(p.id) FILTER (WHERE p.status = 'CAPTURED') <> CASE
                 WHEN o.status IN ('PAID','PROCESSING') THEN 1
                 WHEN o.status IN ${SHIPPED} AND NOT ${REFUNDED_AFTER_SHIPPING} THEN 1
                 ELSE 0 END`),
      (r) => `order ${r.public_id} (${r.status}): ${r.captured} captured payments`,
    ),
  );

  results.push(...(await checkTimeline(db)));

  results.push(
    verdict(
      // Goods + shipping: a physical order's shipping is chosen in the payment form, after the reservation.
      "captured money equals the totals of paid orders",
      await q(`SELECT o.public_id, o.total_minor + o.shipping_minor AS total_minor, p.amount_minor, o.currency, p.currency AS paid_currency
               FROM orders o JOIN payments p ON p.order_id = o.id AND p.status = 'CAPTURED'
               WHERE p.amount_minor <> o.total_minor + o.shipping_minor OR p.currency <> o.currency`),
      (r) =>
        `order ${r.public_id}: total ${r.total_minor} ${r.currency}, captured ${r.amount_minor} ${r.paid_currency}`,
    ),
  );

  results.push(
    verdict(
      "captured payments sum to the totals of paid orders (those refunded after shipping left out)",
      await q(`SELECT captured, paid FROM (SELECT
                 (SELECT COALESCE(SUM(amount_minor), 0) FROM payments WHERE status = 'CAPTURED')::bigint AS captured,
                 (SELECT COALESCE(SUM(total_minor + shipping_minor), 0) FROM orders o
                   WHERE status IN ('PAID','PROCESSING','SHIPPED','DELIVERED')
                     AND NOT ${REFUNDED_AFTER_SHIPPING})::bigint AS paid) s
               WHERE captured <> paid`),
      (r) => `captured ${r.captured}, paid orders' totals ${r.paid}`,
    ),
  );

  if (inputs.expirySlackMs !== undefined) {
    const slack = inputs.expirySlackMs / 1000;
    const grace = (inputs.expirySlackMs + (inputs.paymentGraceMs ?? 0)) / 1000;
    results.push(
      verdict(
        "no reservation is left past its expiry (plus grace)",
        await q(`SELECT public_id, status, expires_at FROM orders
                 WHERE (status = 'RESERVED' AND expires_at < now() - make_interval(secs => ${slack}))
                    OR (status = 'PAYING' AND expires_at < now() - make_interval(secs => ${grace}))`),
        (r) => `order ${r.public_id} still ${r.status}, expired at ${String(r.expires_at)}`,
      ),
    );
  }

  if (inputs.outboxDrained) {
    results.push(
      verdict(
        "the outbox delivered everything that is not dead",
        await q(`SELECT dedupe_key, attempts FROM outbox_messages WHERE status = 'PENDING'
                 UNION ALL
                 SELECT dedupe_key, attempts FROM deliveries WHERE status = 'PENDING'
                 UNION ALL
                 SELECT dedupe_key, 0 FROM events WHERE expanded_at IS NULL`),
        (r) => `outbox ${r.dedupe_key} pending after ${r.attempts} attempts`,
      ),
    );
  }

  if (inputs.telegram) {
    const charges = new Map<string, number>();
    for (const id of inputs.telegram.chargeIds) charges.set(id, (charges.get(id) ?? 0) + 1);
    const since = inputs.telegram.since
      ? `WHERE created_at >= '${inputs.telegram.since.toISOString()}'::timestamptz AT TIME ZONE 'UTC'`
      : "";
    const rows = await q(`SELECT telegram_charge_id, status, refunded_by FROM payments ${since}`);
    const recorded = new Map(rows.map((r) => [String(r.telegram_charge_id), String(r.status)]));
    // Refunded without the bot's call: by Telegram itself (its ledger says so) or by a person.
    const refundedElsewhere = new Set([
      ...rows.filter((r) => r.refunded_by !== null).map((r) => String(r.telegram_charge_id)),
      ...(inputs.charges?.charges.filter((c) => c.refundedAt !== undefined) ?? []).map(
        (c) => c.chargeId,
      ),
    ]);
    const unmatched: Row[] = [];
    for (const id of charges.keys())
      if (!recorded.has(id)) unmatched.push({ id, problem: "no Payment row" });
    for (const id of recorded.keys())
      if (!charges.has(id)) unmatched.push({ id, problem: "Payment without a successful_payment" });
    results.push(
      verdict(
        "each successful_payment maps to exactly one Payment row",
        unmatched,
        (r) => `${r.id}: ${r.problem}`,
      ),
    );

    const refunded = new Map<string, number>();
    for (const id of inputs.telegram.refundedChargeIds)
      refunded.set(id, (refunded.get(id) ?? 0) + 1);
    const wrong: Row[] = [];
    for (const [id, count] of refunded) {
      if (count > 1) wrong.push({ id, problem: `refunded ${count} times` });
      if (recorded.get(id) !== "REFUNDED")
        wrong.push({
          id,
          problem: `refunded, but the payment is ${recorded.get(id) ?? "unknown"}`,
        });
    }
    for (const [id, status] of recorded) {
      if (status === "REFUNDED" && !refunded.has(id) && !refundedElsewhere.has(id))
        wrong.push({ id, problem: "marked REFUNDED without a refund call" });
      if (status === "REFUND_PENDING" && inputs.outboxDrained)
        wrong.push({ id, problem: "still REFUND_PENDING" });
    }
    results.push(
      verdict(
        "refunds were issued for exactly the payments to refund",
        wrong,
        (r) => `${r.id}: ${r.problem}`,
      ),
    );
  }

  results.push(...(await checkDigitalDelivery(db)));
  if (inputs.charges) results.push(await checkChargesAccounted(db, inputs.charges));

  return results;
}

/** A line per invariant, "ok" or the violations; for reports. */
export function formatInvariants(results: InvariantResult[]): string {
  return results
    .map((r) =>
      r.ok
        ? `  ok    ${r.name}`
        : `  FAIL  ${r.name}: ${r.violations} violations, e.g. ${r.examples.join("; ")}`,
    )
    .join("\n");
}

/** Throws, naming every invariant that failed and its examples, unless all hold. */
export async function assertInvariants(db: Database, inputs: InvariantInputs = {}): Promise<void> {
  const failed = (await checkInvariants(db, inputs)).filter((r) => !r.ok);
  if (failed.length > 0) throw new Error(`invariants failed:\n${formatInvariants(failed)}`);
}
