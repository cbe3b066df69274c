// What a customer sets, and what the shop learns about reaching them: their language, a broadcast
// opt-out, and "unreachable since" (a message to them failed because they blocked the bot).
import { Prisma, utcTimestamp } from "@orderbot/db";
import { NOT_FOUND, type NotFound } from "../results.ts";
import {
  CUSTOMER_COLUMNS,
  customerView,
  type CustomerDeps,
  type CustomerLanguage,
  type CustomerRow,
  type CustomerView,
} from "./customer.ts";

export type CustomerChange = { status: "ok"; customer: CustomerView } | NotFound;

/** Their choice (/language): stored, the customer recorded if new. */
export async function setCustomerLanguage(
  deps: CustomerDeps,
  userId: bigint,
  language: CustomerLanguage,
): Promise<CustomerView> {
  const now = utcTimestamp(deps.clock.now());
  const [row] = await deps.db.$queryRaw<CustomerRow[]>`
    INSERT INTO customers (user_id, language, created_at, updated_at, last_seen_at)
    VALUES (${userId}, ${language}, ${now}, ${now}, ${now})
    ON CONFLICT (user_id) DO UPDATE SET language = EXCLUDED.language, updated_at = EXCLUDED.updated_at
    RETURNING ${Prisma.raw(CUSTOMER_COLUMNS)}`;
  return customerView(row!);
}

/** Opts out of broadcasts (kept from the first time), or back in. */
export async function setBroadcastOptOut(
  deps: CustomerDeps,
  userId: bigint,
  optedOut: boolean,
): Promise<CustomerChange> {
  const now = utcTimestamp(deps.clock.now());
  const since = optedOut ? Prisma.sql`COALESCE(broadcasts_opted_out_at, ${now})` : Prisma.sql`NULL`;
  return changed(
    await deps.db.$queryRaw<CustomerRow[]>`
      UPDATE customers SET broadcasts_opted_out_at = ${since}, updated_at = ${now}
       WHERE user_id = ${userId}
      RETURNING ${Prisma.raw(CUSTOMER_COLUMNS)}`,
  );
}

/** A message to them failed because they blocked the bot: unreachable from the first failure. */
export async function markUnreachable(deps: CustomerDeps, userId: bigint): Promise<CustomerChange> {
  const now = utcTimestamp(deps.clock.now());
  return changed(
    await deps.db.$queryRaw<CustomerRow[]>`
      UPDATE customers SET unreachable_since = COALESCE(unreachable_since, ${now}), updated_at = ${now}
       WHERE user_id = ${userId}
      RETURNING ${Prisma.raw(CUSTOMER_COLUMNS)}`,
  );
}

function changed(rows: CustomerRow[]): CustomerChange {
  const [row] = rows;
  return row ? { status: "ok", customer: customerView(row) } : NOT_FOUND;
}
