import type { Sql } from "../../database/sql.ts";
import { insertFinding } from "./findings.ts";
import type { LedgerTransaction } from "./ledger.ts";

/** Where a page goes back in time: its index, and the date (Unix s) it goes back from. */
export interface OrderBreak {
  index: number;
  previous: number;
}

/**
 * The first transaction of a page dated before the one read just before it (the last one stored,
 * for the page's first), or null when the page reads in order. Telegram's list is read as growing
 * only at its end, oldest first; a date going back means it changed behind the position.
 */
export function findOrderBreak(
  transactions: readonly LedgerTransaction[],
  lastDate: number | null,
): OrderBreak | null {
  let previous = lastDate;
  for (const [index, t] of transactions.entries()) {
    if (previous !== null && t.date < previous) return { index, previous };
    previous = t.date;
  }
  return null;
}

/** The break as a finding, recorded once (unique per kind and transaction): operators are alerted. */
export async function reportOrderBreak(
  sql: Pick<Sql, "$executeRaw">,
  transactions: readonly LedgerTransaction[],
  at: OrderBreak & { offset: number },
): Promise<number> {
  const t = transactions[at.index]!;
  const user = (t.source ?? t.receiver)?.user;
  return insertFinding(
    sql,
    "ledger-out-of-order",
    { id: t.id, user_id: user ? BigInt(user.id) : null, amount: t.amount },
    { offset: at.offset + at.index, date: t.date, previousDate: at.previous },
  );
}
