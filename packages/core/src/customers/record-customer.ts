// The one call by which any way in records a customer it meets: the first time, with the language
// they use; after that, "last seen" moves on at most once per LAST_SEEN_RESOLUTION_MS, so a
// customer stored already costs a read, not a write. A customer who writes again is reachable.
import { Prisma, utcTimestamp } from "@orderbot/db";
import { z } from "zod";
import { invalid, type Invalid } from "../results.ts";
import { parseWith, telegramId } from "../validation.ts";
import {
  CUSTOMER_COLUMNS,
  customerLanguageSchema,
  customerView,
  LAST_SEEN_RESOLUTION_MS,
  type CustomerDeps,
  type CustomerLanguage,
  type CustomerRow,
  type CustomerView,
} from "./customer.ts";

export interface RecordCustomerInput {
  userId: bigint | number | string;
  /** The language they use (Telegram's language_code, mapped): kept only for a new customer. */
  language: CustomerLanguage;
}

export type RecordCustomerResult = { status: "ok"; customer: CustomerView } | Invalid;

const inputSchema = z.object({ userId: telegramId, language: customerLanguageSchema });

export async function recordCustomer(
  deps: CustomerDeps,
  raw: RecordCustomerInput,
): Promise<RecordCustomerResult> {
  const parsed = parseWith(inputSchema, raw);
  if (!parsed.ok) return invalid(parsed.problems);
  const { userId, language } = parsed.value;
  const now = utcTimestamp(deps.clock.now());
  const stale = utcTimestamp(new Date(deps.clock.now().getTime() - LAST_SEEN_RESOLUTION_MS));
  const columns = Prisma.raw(CUSTOMER_COLUMNS);
  // One statement: the insert or the hourly touch, else the row as it is (the update's WHERE
  // skipped it, so RETURNING is empty and the second SELECT reads it).
  const [row] = await deps.db.$queryRaw<CustomerRow[]>`
    WITH recorded AS (
      INSERT INTO customers (user_id, language, created_at, updated_at, last_seen_at)
      VALUES (${userId}, ${language}, ${now}, ${now}, ${now})
      ON CONFLICT (user_id) DO UPDATE
        SET last_seen_at = EXCLUDED.last_seen_at, unreachable_since = NULL,
            updated_at = EXCLUDED.updated_at
        WHERE customers.last_seen_at IS NULL OR customers.last_seen_at <= ${stale}
           OR customers.unreachable_since IS NOT NULL
      RETURNING ${columns}
    )
    SELECT ${columns} FROM recorded
    UNION ALL
    SELECT ${columns} FROM customers
     WHERE user_id = ${userId} AND NOT EXISTS (SELECT 1 FROM recorded)`;
  // Inserted by another call after this statement's snapshot: read it now.
  const customer = row ? customerView(row) : await readCustomer(deps, userId);
  return { status: "ok", customer: customer! };
}

/** A customer as stored, or null for one the shop has never met. */
export async function readCustomer(
  deps: CustomerDeps,
  userId: bigint,
): Promise<CustomerView | null> {
  const [row] = await deps.db.$queryRaw<CustomerRow[]>`
    SELECT ${Prisma.raw(CUSTOMER_COLUMNS)} FROM customers WHERE user_id = ${userId}`;
  return row ? customerView(row) : null;
}
