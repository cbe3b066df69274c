import { runTransaction, type Database } from "@orderbot/db";
import type { Sql } from "../../database/sql.ts";
import { findOrderBreak, reportOrderBreak } from "./ledger-order.ts";

/**
 * One entry of Telegram's getStarTransactions, as much of it as the comparison reads: the Bot
 * API's StarTransaction. A payment is incoming (`source` is the payer), its refund outgoing
 * (`receiver` is the payer) with the same `id`, the charge's telegram_payment_charge_id.
 */
export interface LedgerTransaction {
  id: string;
  amount: number;
  /** Unix time (s). */
  date: number;
  source?: LedgerPartner;
  receiver?: LedgerPartner;
}

export interface LedgerPartner {
  type: string;
  transaction_type?: string;
  user?: { id: number };
  invoice_payload?: string;
}

/** A user's payment for an invoice (or its refund): the only kind the shop takes. */
export const INVOICE_PARTNER = "user:invoice_payment";

/** Telegram's getStarTransactions with offset and limit (1-100); the worker's Bot API call. */
export type FetchLedgerPage = (offset: number, limit: number) => Promise<LedgerTransaction[]>;

/** Telegram's largest page. */
export const LEDGER_PAGE_SIZE = 100;

export interface ReadLedgerOptions {
  botId: bigint;
  fetchPage: FetchLedgerPage;
  /** Stop between pages when it aborts (lease lost, or the worker stopping). */
  signal?: AbortSignal;
  /** Each page's transaction rolls back instead of committing once it aborts (lease lost). */
  leaseSignal?: AbortSignal;
  /** Pages per run at most, so a long history is read over several runs. Default 50. */
  maxPages?: number;
  pageSize?: number;
  now: () => Date;
}

export interface ReadLedgerResult {
  /** Transactions read (and stored) by this run. */
  read: number;
  /** True when this run reached the end of Telegram's list. */
  atEnd: boolean;
  /** The position after the run: the number of transactions read in all. */
  offset: number;
  /** True when a page went back in time or repeated what was stored: a finding alerts operators. */
  outOfOrder?: boolean;
}

interface MirrorRow {
  direction: "in" | "out";
  partner: string;
  userId: bigint | null;
  payload: string | null;
}

function mirrorRow(t: LedgerTransaction): MirrorRow {
  const direction = t.source ? "in" : "out";
  const p = t.source ?? t.receiver;
  const partner = !p
    ? "unknown"
    : p.type === "user"
      ? `user:${p.transaction_type ?? "invoice_payment"}`
      : p.type;
  return {
    direction,
    partner,
    userId: p?.user ? BigInt(p.user.id) : null,
    payload: p?.invoice_payload ?? null,
  };
}

/** The stored position, creating it (offset 0) the first time, and the last date read (Unix s). */
async function readPosition(
  db: Database,
  botId: bigint,
): Promise<{ offset: number; lastDate: number | null }> {
  await db.$executeRaw`
    INSERT INTO star_ledger_positions (bot_id) VALUES (${botId}) ON CONFLICT (bot_id) DO NOTHING`;
  const [row] = await db.$queryRaw<{ tx_offset: number; last_date: Date | null }[]>`
    SELECT tx_offset, last_date FROM star_ledger_positions WHERE bot_id = ${botId}`;
  const lastDate = row?.last_date ? Math.floor(row.last_date.getTime() / 1000) : null;
  return { offset: row?.tx_offset ?? 0, lastDate };
}

/**
 * Reads Telegram's list from the stored position onwards, page by page, and stores what it reads.
 * Telegram's list only grows, oldest first, so the position (the number of transactions read) is
 * the offset of the next page and history is read once. That is checked, not assumed: a page whose
 * dates go back (within it, or before the last one stored), or that repeats what was stored, is a
 * finding that alerts operators once (ledger-order.ts), and reading goes on past it: storing is
 * idempotent on the transaction id, and a reader that stopped there would never see a later charge.
 * Each page is stored and the position advanced in one transaction, conditional on the position
 * it started from: a second reader (a paused leader waking up) changes nothing, and a page is
 * never half stored. No lock or transaction is held while Telegram answers.
 */
export async function readLedger(
  db: Database,
  options: ReadLedgerOptions,
): Promise<ReadLedgerResult> {
  const pageSize = options.pageSize ?? LEDGER_PAGE_SIZE;
  const maxPages = options.maxPages ?? 50;
  let { offset, lastDate } = await readPosition(db, options.botId);
  let read = 0;
  let outOfOrder = false;
  const result = (atEnd: boolean) => ({
    read,
    atEnd,
    offset,
    ...(outOfOrder ? { outOfOrder } : {}),
  });
  for (let page = 0; page < maxPages; page++) {
    if (options.signal?.aborted) break;
    // Anything charged after this instant may be missing from the page: the end of the list is
    // known to be complete only up to here.
    const askedAt = options.now();
    const transactions = await options.fetchPage(offset, pageSize);
    const broken = findOrderBreak(transactions, lastDate);
    if (broken) await reportOrderBreak(db, transactions, { ...broken, offset });
    const atEnd = transactions.length < pageSize;
    const stored = await storePage(db, options, { transactions, offset, atEnd, askedAt });
    if (stored.moved !== 1)
      return { read, atEnd: false, offset: (await readPosition(db, options.botId)).offset };
    // The position was ours, yet the page repeats what is stored: entries were added behind it.
    if (!broken && stored.added < transactions.length)
      await reportOrderBreak(db, transactions, { index: 0, previous: lastDate ?? 0, offset });
    outOfOrder ||= broken !== null || stored.added < transactions.length;
    offset += transactions.length;
    lastDate = transactions.at(-1)?.date ?? lastDate;
    read += transactions.length;
    if (atEnd) return result(true);
  }
  return result(false);
}

/** One page stored and the position moved past it, if the position is still where it was read. */
async function storePage(
  db: Database,
  options: ReadLedgerOptions,
  page: { transactions: LedgerTransaction[]; offset: number; atEnd: boolean; askedAt: Date },
): Promise<{ moved: number; added: number }> {
  const { transactions, offset, atEnd, askedAt } = page;
  const pageLast = transactions.at(-1);
  const newLastDate = pageLast ? new Date(pageLast.date * 1000) : null;
  return runTransaction(
    db,
    async (tx) => {
      const added = await storeTransactions(tx, options.botId, transactions);
      const moved = await tx.$executeRaw`
        UPDATE star_ledger_positions
           SET tx_offset = ${offset + transactions.length},
               read_to_end_at = CASE WHEN ${atEnd} THEN ${askedAt}::timestamp ELSE read_to_end_at END,
               last_date = COALESCE(${newLastDate}::timestamp, last_date),
               updated_at = timezone('UTC', now())
         WHERE bot_id = ${options.botId} AND tx_offset = ${offset}`;
      return { moved, added };
    },
    options.leaseSignal ? { signal: options.leaseSignal } : {},
  );
}

/** Stores a page; returns how many of its transactions were new. */
async function storeTransactions(
  tx: Sql,
  botId: bigint,
  transactions: readonly LedgerTransaction[],
): Promise<number> {
  if (transactions.length === 0) return 0;
  const { count } = await tx.starTransaction.createMany({
    data: transactions.map((t) => {
      const row = mirrorRow(t);
      return {
        botId,
        direction: row.direction,
        transactionId: t.id,
        partner: row.partner,
        userId: row.userId,
        invoicePayload: row.payload,
        amount: t.amount,
        occurredAt: new Date(t.date * 1000),
      };
    }),
    skipDuplicates: true,
  });
  return count;
}
