import type { Prisma } from "@orderbot/db";
import type { Sql } from "../../database/sql.ts";
import type { Invalid, NotFound } from "../../results.ts";

/** The differences between Telegram's Stars ledger and the payments table. */
export const FINDING_KINDS = [
  /**
   * Telegram took a payment the shop has no row for: recorded now against the order its payload
   * names, as its successful_payment would be; with no such order, recorded order-less and refunded.
   */
  "charge-missing",
  /** The shop recorded a Stars payment that Telegram's list does not have. */
  "payment-unknown-to-telegram",
  /** Telegram refunded a payment the shop still had as captured: recorded as refunded now. */
  "refund-only-in-telegram",
  /** The shop has a Stars payment as refunded, and Telegram's list has no refund of it. */
  "refund-only-in-shop",
  /** Telegram's amount (or currency) differs from the shop's record of the charge. */
  "amount-mismatch",
  /**
   * Telegram's list went back in time while it was read (it changed behind the position): the
   * reader stops there rather than read past it.
   */
  "ledger-out-of-order",
] as const;
export type FindingKind = (typeof FINDING_KINDS)[number];

export interface LedgerFinding {
  id: number;
  kind: FindingKind;
  telegramChargeId: string;
  userId: bigint | null;
  telegramAmount: number | null;
  shopAmount: number | null;
  details: Record<string, unknown>;
  foundAt: Date;
  alertedAt: Date | null;
  resolvedAt: Date | null;
  resolvedBy: string | null;
  resolveNote: string | null;
}

const toFinding = (row: Prisma.StarLedgerFindingModel): LedgerFinding => ({
  ...row,
  kind: row.kind as FindingKind,
  details: (row.details ?? {}) as Record<string, unknown>,
});

/** Findings nobody has resolved yet, oldest first (/refunds). */
export async function openFindings(sql: Sql, limit: number): Promise<LedgerFinding[]> {
  const rows = await sql.starLedgerFinding.findMany({
    where: { resolvedAt: null },
    orderBy: { id: "asc" },
    take: limit,
  });
  return rows.map(toFinding);
}

/** How many findings are open: the orderbot_unreconciled_charges gauge. */
export async function openFindingCount(sql: Sql): Promise<number> {
  return sql.starLedgerFinding.count({ where: { resolvedAt: null } });
}

export const FINDING_NOTE_MAX = 500;

export type ResolveFindingResult =
  | { status: "resolved"; finding: LedgerFinding }
  | { status: "already-resolved"; finding: LedgerFinding }
  | NotFound
  | Invalid;

/**
 * An operator has looked at a finding and settled it: who and when are recorded, once (a
 * conditional update, so two operators pressing at once leave the first one's name).
 */
export async function resolveFinding(
  sql: Sql,
  input: { id: number; actor: string; note?: string | null; now: Date },
): Promise<ResolveFindingResult> {
  const note = input.note?.trim() || null;
  if (!Number.isSafeInteger(input.id) || input.id <= 0)
    return { status: "invalid", problems: [{ field: "id", rule: "min", bound: 1 }] };
  if (input.actor.trim() === "")
    return { status: "invalid", problems: [{ field: "actor", rule: "required" }] };
  if (note && note.length > FINDING_NOTE_MAX)
    return {
      status: "invalid",
      problems: [{ field: "note", rule: "max-length", bound: FINDING_NOTE_MAX }],
    };
  const { count } = await sql.starLedgerFinding.updateMany({
    where: { id: input.id, resolvedAt: null },
    data: { resolvedAt: input.now, resolvedBy: input.actor, resolveNote: note },
  });
  const row = await sql.starLedgerFinding.findUnique({ where: { id: input.id } });
  if (!row) return { status: "not-found" };
  return { status: count === 1 ? "resolved" : "already-resolved", finding: toFinding(row) };
}

/** Records a finding once; 1 when it is new. The unique (kind, charge) key is the guard. */
export async function insertFinding(
  sql: Pick<Sql, "$executeRaw">,
  kind: FindingKind,
  charge: { id: string; user_id: bigint | null; amount: number },
  details: Record<string, unknown>,
): Promise<number> {
  return sql.$executeRaw`
    INSERT INTO star_ledger_findings (kind, telegram_charge_id, user_id, telegram_amount, details)
    VALUES (${kind}, ${charge.id}, ${charge.user_id}, ${charge.amount}, ${JSON.stringify(details)}::jsonb)
    ON CONFLICT DO NOTHING`;
}
