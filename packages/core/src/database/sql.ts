import type { Database, Tx } from "@orderbot/db";

/** What these functions need from Prisma: a client or a transaction client. */
export type Sql = Database | Tx;

/** Telegram ids exceed 2^31 but fit in a double exactly (they stay below 2^52). */
export function chatIdParam(ids: readonly bigint[]): string[] {
  return ids.map(String);
}
