import type { Sql } from "../database/sql.ts";
import { STARS } from "./pending-refunds.ts";

/** Where an owed refund stands, as operators need to read it. */
export type OwedRefundState =
  /** Stars: the refund call is queued or on its way (or the refunds job is about to queue it). */
  | { kind: "waiting-telegram" }
  /** Stars: Telegram refused the call; it is dead-lettered until an operator retries it. */
  | { kind: "refused"; error: string }
  /** Another currency: the payment provider refunds it, and an operator marks it done. */
  | { kind: "by-hand" };

/** A REFUND_PENDING payment: money the shop owes back. */
export interface OwedRefund {
  paymentId: number;
  telegramChargeId: string;
  /** Null for a charge whose invoice named no order we know. */
  orderId: string | null;
  userId: bigint;
  amountMinor: number;
  currency: string;
  createdAt: Date;
  state: OwedRefundState;
}

interface Row {
  id: number;
  telegram_charge_id: string;
  public_id: string | null;
  user_id: bigint;
  amount_minor: number;
  currency: string;
  created_at: Date;
  call_status: string | null;
  last_error: string | null;
}

function stateOf(row: Row): OwedRefundState {
  if (row.currency !== STARS) return { kind: "by-hand" };
  if (row.call_status === "DEAD") return { kind: "refused", error: row.last_error ?? "" };
  return { kind: "waiting-telegram" };
}

/**
 * Every payment owed back, the ones that need a person first (refused by Telegram, then to refund
 * by hand), then the oldest. `total` counts them all, `refunds` holds at most `limit`.
 */
export async function listOwedRefunds(
  sql: Sql,
  limit: number,
): Promise<{ refunds: OwedRefund[]; total: number }> {
  const [count] = await sql.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM payments WHERE status = 'REFUND_PENDING'`;
  return { total: count?.n ?? 0, refunds: await owed(sql, null, limit) };
}

/** One payment, if it is owed back (a button names it by its row id). */
export async function findOwedRefund(sql: Sql, paymentId: number): Promise<OwedRefund | null> {
  return (await owed(sql, paymentId, 1))[0] ?? null;
}

async function owed(sql: Sql, paymentId: number | null, limit: number): Promise<OwedRefund[]> {
  const rows = await sql.$queryRaw<Row[]>`
    SELECT p.id, p.telegram_charge_id, o.public_id, p.user_id, p.amount_minor, p.currency,
           p.created_at, m.status::text AS call_status, m.last_error
      FROM payments p
      LEFT JOIN orders o ON o.id = p.order_id
      LEFT JOIN outbox_messages m ON m.dedupe_key = 'refund:' || p.telegram_charge_id
     WHERE p.status = 'REFUND_PENDING' AND (${paymentId}::int IS NULL OR p.id = ${paymentId}::int)
     ORDER BY CASE WHEN m.status = 'DEAD' THEN 0 WHEN p.currency <> ${STARS} THEN 1 ELSE 2 END, p.id
     LIMIT ${limit}`;
  return rows.map((r) => ({
    paymentId: r.id,
    telegramChargeId: r.telegram_charge_id,
    orderId: r.public_id,
    userId: BigInt(r.user_id),
    amountMinor: r.amount_minor,
    currency: r.currency,
    createdAt: r.created_at,
    state: stateOf(r),
  }));
}
