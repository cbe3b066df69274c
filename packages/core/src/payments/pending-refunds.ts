import { runTransaction, type Database } from "@orderbot/db";
import type { ClaimRef } from "../outbox/claims.ts";
import type { Sql } from "../database/sql.ts";

/** Telegram Stars: the one currency the bot refunds itself (refundStarPayment, sent by the relay). */
export const STARS = "XTR";

/** Dedupe key of a Stars refund call in the outbox; the same key core uses when it queues one. */
export const starRefundKey = (telegramChargeId: string): string => `refund:${telegramChargeId}`;

/** Dedupe key of the operators' `refund.needed` event about a charge; the same key core uses. */
export const refundAlertKey = (telegramChargeId: string): string =>
  `refund-alert:${telegramChargeId}`;

export type CompleteRefundOutcome =
  /** The payment went REFUND_PENDING → REFUNDED now. */
  | "refunded"
  /** The message was settled, but the payment was not pending (an operator or a resend got there first). */
  | "not-pending"
  /** Our claim on the message had passed to another relay: nothing changed. */
  | "claim-lost";

/**
 * After Telegram confirmed a refundStarPayment call: the outbox message goes SENT and the payment
 * REFUNDED in one transaction, each by a conditional update, so a refund is recorded once.
 */
export async function completeStarRefund(
  db: Database,
  ref: ClaimRef,
  telegramChargeId: string,
): Promise<CompleteRefundOutcome> {
  return runTransaction(db, async (tx) => {
    const sent = await tx.$executeRaw`
      UPDATE outbox_messages SET status = 'SENT', sent_at = timezone('UTC', now()), last_error = NULL
       WHERE id = ${ref.id} AND status = 'PENDING' AND next_attempt_at = ${ref.claim}::timestamp`;
    if (sent !== 1) return "claim-lost";
    const refunded = await tx.$executeRaw`
      UPDATE payments SET status = 'REFUNDED', refunded_at = timezone('UTC', now())
       WHERE telegram_charge_id = ${telegramChargeId} AND status = 'REFUND_PENDING'`;
    return refunded === 1 ? "refunded" : "not-pending";
  });
}

export interface PendingRefund {
  paymentId: number;
  /** Null for a charge whose invoice named no order we know. */
  orderPublicId: string | null;
  userId: bigint;
  telegramChargeId: string;
  amountMinor: number;
  currency: string;
  createdAt: Date;
}

interface RefundRow {
  payment_id: number;
  public_id: string | null;
  user_id: bigint;
  telegram_charge_id: string;
  amount_minor: number;
  currency: string;
  created_at: Date;
}

const toRefund = (r: RefundRow): PendingRefund => ({
  paymentId: r.payment_id,
  orderPublicId: r.public_id,
  userId: BigInt(r.user_id),
  telegramChargeId: r.telegram_charge_id,
  amountMinor: r.amount_minor,
  currency: r.currency,
  createdAt: r.created_at,
});

/**
 * REFUND_PENDING Stars payments (with or without an order) with no refund call in the outbox. Core queues the call in the
 * transaction that records the payment, so this finds only what slipped through (rows written by
 * hand, older code); the refunds job queues their call.
 */
export async function starRefundsWithoutCall(sql: Sql, limit: number): Promise<PendingRefund[]> {
  const rows = await sql.$queryRaw<RefundRow[]>`
    SELECT p.id AS payment_id, o.public_id, p.user_id, p.telegram_charge_id, p.amount_minor, p.currency, p.created_at
      FROM payments p LEFT JOIN orders o ON o.id = p.order_id
     WHERE p.status = 'REFUND_PENDING' AND p.currency = ${STARS}
       AND NOT EXISTS (SELECT 1 FROM outbox_messages m WHERE m.dedupe_key = 'refund:' || p.telegram_charge_id)
     ORDER BY p.id LIMIT ${limit}`;
  return rows.map(toRefund);
}

/**
 * REFUND_PENDING payments in other currencies whose operators were never alerted (the provider
 * refunds them, by hand): no `refund.needed` event that reached or will reach a chat, nor an alert
 * the previous release queued.
 */
export async function manualRefundsNotAlerted(sql: Sql, limit: number): Promise<PendingRefund[]> {
  const rows = await sql.$queryRaw<RefundRow[]>`
    SELECT p.id AS payment_id, o.public_id, p.user_id, p.telegram_charge_id, p.amount_minor, p.currency, p.created_at
      FROM payments p LEFT JOIN orders o ON o.id = p.order_id
     WHERE p.status = 'REFUND_PENDING' AND p.currency <> ${STARS}
       AND NOT EXISTS (SELECT 1 FROM events e WHERE e.dedupe_key = 'refund-alert:' || p.telegram_charge_id
                         AND (e.expanded_at IS NULL OR EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = e.id)))
       AND NOT EXISTS (SELECT 1 FROM outbox_messages m WHERE m.dedupe_key LIKE 'refund-alert:' || p.telegram_charge_id || ':%')
     ORDER BY p.id LIMIT ${limit}`;
  return rows.map(toRefund);
}

/** Age of the oldest REFUND_PENDING payment (s); 0 when there is none. */
export async function oldestRefundPendingAgeSeconds(sql: Sql): Promise<number> {
  const [row] = await sql.$queryRaw<{ age: number | null }[]>`
    SELECT EXTRACT(EPOCH FROM timezone('UTC', now()) - min(created_at))::float8 AS age
      FROM payments WHERE status = 'REFUND_PENDING'`;
  return Math.max(0, row?.age ?? 0);
}
