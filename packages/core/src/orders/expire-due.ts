import { runTransaction, type Tx, utcTimestamp } from "@orderbot/db";
import type { CoreDeps } from "../deps.ts";
import { lockProductsOfOrders, moveOrderStock } from "../stock/ledger.ts";
import { moveEvents } from "./move-events.ts";
import { enqueueOutbox } from "../outbox/messages.ts";
import { recordEvents } from "../events/record.ts";
import { giveBackPromoUses } from "../promotions/give-back.ts";

export interface ExpireDueResult {
  /** Orders moved to EXPIRED. */
  expired: number;
  /** Stock units returned to sale. */
  releasedUnits: number;
  /** `order.expired` events recorded that name a customer to tell. */
  notified: number;
  /** Transactions run (one per batch). */
  batches: number;
}

export interface ExpireDueOptions {
  /** Stop between batches when it aborts (the worker's leadership lease). */
  signal?: AbortSignal;
  /** At most this many batches per call (default: until nothing is due). */
  maxBatches?: number;
}

interface ExpiredRow {
  id: number;
  publicId: string;
  chatId: bigint;
  /** RESERVED or PAYING: what the timeline records it moved from. */
  from: string;
}

/**
 * Expires due reservations, set-based: each batch is one short transaction that claims up to
 * `batchSize` due orders with `FOR UPDATE SKIP LOCKED` — RESERVED past `expires_at`, PAYING past
 * `expires_at` + the payment grace — moves them to EXPIRED, returns their stock with one UPDATE
 * per product (driven by RELEASE ledger rows, unique per order and product), and records one
 * `order.expired` event per order (unique dedupe key). Several workers may run it at once: each claims
 * different rows, and an order being paid or cancelled (row locked) is skipped, not waited for.
 */
export function createExpireDue(deps: CoreDeps) {
  return async function expireDue(
    now: Date,
    batchSize = 200,
    options: ExpireDueOptions = {},
  ): Promise<ExpireDueResult> {
    const total: ExpireDueResult = { expired: 0, releasedUnits: 0, notified: 0, batches: 0 };
    const payingDueBefore = new Date(now.getTime() - deps.config.paymentGraceMs);
    for (;;) {
      if (
        options.signal?.aborted ||
        (options.maxBatches !== undefined && total.batches >= options.maxBatches)
      )
        break;
      const batch = await runTransaction(
        deps.db,
        (tx) => expireBatch(tx, now, payingDueBefore, batchSize),
        {
          signal: options.signal,
          timeoutMs: deps.config.transactionTimeoutMs,
          maxWaitMs: deps.config.transactionMaxWaitMs,
        },
      );
      total.batches++;
      total.expired += batch.expired;
      total.releasedUnits += batch.releasedUnits;
      total.notified += batch.notified;
      if (batch.expired < batchSize) break;
    }
    if (total.expired > 0) {
      deps.metrics.expiries.inc(total.expired);
      deps.metrics.releasedUnits.inc({ reason: "RELEASE" }, total.releasedUnits);
      deps.logger.info(total, "reservations expired");
    }
    return total;
  };
}

async function expireBatch(
  tx: Tx,
  now: Date,
  payingDueBefore: Date,
  batchSize: number,
): Promise<Omit<ExpireDueResult, "batches">> {
  const expired = await tx.$queryRaw<ExpiredRow[]>`
    WITH due AS (
      SELECT id, status FROM orders
      WHERE (status = 'RESERVED' AND expires_at <= ${utcTimestamp(now)})
         OR (status = 'PAYING' AND expires_at <= ${utcTimestamp(payingDueBefore)})
      ORDER BY expires_at, id
      LIMIT ${batchSize}
      FOR UPDATE SKIP LOCKED
    )
    UPDATE orders o
    SET status = 'EXPIRED', version = o.version + 1, updated_at = now() AT TIME ZONE 'UTC'
    FROM due
    WHERE o.id = due.id AND o.status IN ('RESERVED', 'PAYING')
    RETURNING o.id, o.public_id AS "publicId", o.chat_id AS "chatId", due.status::text AS "from"`;
  if (expired.length === 0) return { expired: 0, releasedUnits: 0, notified: 0 };
  // The timeline's entries, as orders/transitions.ts writes them for every other move.
  await tx.$executeRaw`
    INSERT INTO order_timeline (order_id, from_status, to_status, actor)
    SELECT e.id, e.from_status::"OrderStatus", 'EXPIRED', 'system'
    FROM unnest(${expired.map((o) => o.id)}::int[], ${expired.map((o) => o.from)}::text[]) AS e(id, from_status)`;

  const ids = expired.map((o) => o.id);
  // Their promo uses go back in this transaction, once (the move above is won once per order).
  await giveBackPromoUses(tx, ids);
  await lockProductsOfOrders(tx, ids);
  const moved = await moveOrderStock(tx, ids, "RELEASE", "worker");
  // Each customer hears their reservation ran out; the configured operator chat never does.
  const notified = await recordEvents(
    tx,
    expired.map((o) => expiredEvent(o.publicId)),
    undefined,
  );
  await enqueueOutbox(
    tx,
    expired.flatMap((o) => moveEvents(o, "EXPIRED")),
  );
  return {
    expired: expired.length,
    releasedUnits: moved.reduce((sum, m) => sum + m.delta, 0),
    notified,
  };
}

/** An order's `order.expired`, told once under the key its notice always had. */
function expiredEvent(orderId: string) {
  const keys = { dedupeKey: `order.expired:${orderId}`, deliveryKey: `expired:${orderId}` };
  return { event: { kind: "order.expired", orderId } as const, keys };
}
