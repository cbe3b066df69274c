// A customer as the shop knows them, whichever way they came in (the chat, a Mini App): their
// language, when they were first and last seen, whether they take broadcasts, and whether the bot
// can still reach them.
import { z } from "zod";
import type { CoreDeps } from "../deps.ts";

/** All a customer's calls need: no lock (each is one statement on their own row). */
export type CustomerDeps = Pick<CoreDeps, "db" | "clock">;

/** The languages a customer may have (the customers table's CHECK says the same). */
export const CUSTOMER_LANGUAGES = ["en", "zh"] as const;
export type CustomerLanguage = (typeof CUSTOMER_LANGUAGES)[number];
export const customerLanguageSchema = z.enum(CUSTOMER_LANGUAGES);

/**
 * How coarse "last seen" is: a customer seen again within this long is not written again, so a
 * busy customer costs one write an hour, not one per update.
 */
export const LAST_SEEN_RESOLUTION_MS = 3_600_000;

export interface CustomerView {
  userId: bigint;
  language: CustomerLanguage;
  firstSeenAt: Date;
  /** Null: not seen since this was first recorded (a customer of an earlier release). */
  lastSeenAt: Date | null;
  /** When they opted out of broadcasts; null: they get them. */
  broadcastsOptedOutAt: Date | null;
  /** Since when messages to them fail because they blocked the bot; null: reachable. */
  unreachableSince: Date | null;
}

/** The columns a view is read from, as SQL returns them. */
export interface CustomerRow {
  user_id: bigint;
  language: string;
  created_at: Date;
  last_seen_at: Date | null;
  broadcasts_opted_out_at: Date | null;
  unreachable_since: Date | null;
}

export const CUSTOMER_COLUMNS =
  "user_id, language, created_at, last_seen_at, broadcasts_opted_out_at, unreachable_since";

export function customerView(row: CustomerRow): CustomerView {
  return {
    userId: BigInt(row.user_id),
    // The table's CHECK admits only these; an unknown one reads as the first.
    language: customerLanguageSchema.catch(CUSTOMER_LANGUAGES[0]).parse(row.language),
    firstSeenAt: row.created_at,
    lastSeenAt: row.last_seen_at,
    broadcastsOptedOutAt: row.broadcasts_opted_out_at,
    unreachableSince: row.unreachable_since,
  };
}
