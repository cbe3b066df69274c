import type { Database } from "@orderbot/db";
import type { InvariantResult } from "./invariants.ts";

/** Telegram Stars: refunded by the bot itself with refundStarPayment. */
const STARS = "XTR";

/** What Telegram's side (the fake Bot API) recorded about the money of a run. */
export interface ChargeLedger {
  /** Every charge Telegram took (the fake's `charges`); `refundedAt` when Telegram refunded it. */
  charges: readonly { chargeId: string; currency: string; refundedAt?: number | undefined }[];
  /** Every refundStarPayment call and whether Telegram accepted it. */
  refundCalls: readonly { chargeId: string; ok: boolean }[];
  /**
   * The run may still be settling: a Stars refund that is REFUND_PENDING with its call queued in
   * the outbox is then on its way. After settling nothing may be pending.
   */
  settling?: boolean;
}

interface PaymentRow {
  chargeId: string;
  status: string;
  currency: string;
  orderStatus: string | null;
  refundedBy: string | null;
  queued: boolean;
}

/**
 * "Every charge accounted for": each charge Telegram took is either (a) a CAPTURED payment of a
 * PAID, PROCESSING, SHIPPED or DELIVERED order, or (b) refunded in Telegram's ledger exactly once
 * with its payment REFUNDED (a payment without an order included: such a charge must be refunded), or (c) while
 * still settling, a Stars payment REFUND_PENDING whose refund call is queued. A charge the shop
 * recorded nowhere, or refunded twice, is a buyer who lost money.
 */
export async function checkChargesAccounted(
  db: Database,
  ledger: ChargeLedger,
): Promise<InvariantResult> {
  const ids = ledger.charges.map((c) => c.chargeId);
  const rows =
    ids.length === 0
      ? []
      : await db.$queryRaw<PaymentRow[]>`
          SELECT p.telegram_charge_id AS "chargeId", p.status::text AS status, p.currency,
                 o.status::text AS "orderStatus", p.refunded_by AS "refundedBy",
                 EXISTS (SELECT 1 FROM outbox_messages m
                         WHERE m.dedupe_key = 'refund:' || p.telegram_charge_id
                           AND m.status = 'PENDING') AS queued
          FROM payments p LEFT JOIN orders o ON o.id = p.order_id
          WHERE p.telegram_charge_id = ANY(${ids})`;
  const byCharge = new Map(rows.map((r) => [r.chargeId, r]));
  const accepted = new Map<string, number>();
  for (const call of ledger.refundCalls)
    if (call.ok) accepted.set(call.chargeId, (accepted.get(call.chargeId) ?? 0) + 1);

  const problems: string[] = [];
  for (const charge of ledger.charges) {
    const short = charge.chargeId.slice(0, 12);
    const row = byCharge.get(charge.chargeId);
    const refunds = accepted.get(charge.chargeId) ?? 0;
    if (refunds > 1) problems.push(`${short}: refunded ${refunds} times`);
    if (!row) {
      problems.push(
        `${short} (${charge.currency}): charged${charge.refundedAt ? " and refunded" : ""}, recorded nowhere`,
      );
      continue;
    }
    const what = `${short}: payment ${row.status}, order ${row.orderStatus ?? "none"}`;
    if (charge.refundedAt !== undefined) {
      if (row.status !== "REFUNDED") problems.push(`${what}, yet Telegram refunded it`);
      continue;
    }
    if (row.status === "CAPTURED") {
      if (!["PAID", "PROCESSING", "SHIPPED", "DELIVERED"].includes(String(row.orderStatus)))
        problems.push(`${what}: captured, neither delivered nor refunded`);
    } else if (row.status === "REFUND_PENDING") {
      const onItsWay = charge.currency === STARS ? row.queued : true;
      if (!ledger.settling || !onItsWay)
        problems.push(`${what}: refund still pending${row.queued ? " (queued)" : ", not queued"}`);
    } else if (row.status === "REFUNDED") {
      // Stars come back only through Telegram; another currency's refund is made at the provider
      // and marked here by a person (refunded_by says who).
      if (charge.currency === STARS || row.refundedBy === null)
        problems.push(`${what}, but Telegram never refunded the charge`);
    } else {
      problems.push(`${what}: not a state a charge can end in`);
    }
  }
  return {
    name: "every charge is accounted for: a paid order or refunded once, none refunded twice",
    ok: problems.length === 0,
    violations: problems.length,
    examples: problems.slice(0, 5),
  };
}

/** The ledger of a fake Bot API's record: its charges and its refundStarPayment calls. */
export function chargeLedgerOf(
  kit: {
    charges: readonly { chargeId: string; currency: string; refundedAt?: number }[];
    callsTo(method: string): readonly { ok: boolean; params: Record<string, unknown> }[];
  },
  options: { settling?: boolean } = {},
): ChargeLedger {
  return {
    charges: kit.charges,
    refundCalls: kit.callsTo("refundStarPayment").map((c) => ({
      chargeId: String(c.params.telegram_payment_charge_id),
      ok: c.ok,
    })),
    ...options,
  };
}
