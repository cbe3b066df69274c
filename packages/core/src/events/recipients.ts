// The recipient rule lives in SQL, once (event_recipients, migration 20261209000000_events), so that
// the expansion is set-based. This is its reading for what is not an event: the chats a worker's
// own reports and dead-letter alerts go to.
import type { Database } from "@orderbot/db";

/** Every bound operator group, or with none bound the configured chat (`fallbackChat`). */
export async function operatorChats(
  db: Database,
  fallbackChat: bigint | undefined,
): Promise<bigint[]> {
  const rows = await db.$queryRaw<{ chat_id: bigint }[]>`
    SELECT chat_id FROM event_recipients('operator', '{}'::jsonb, ${fallbackChat ?? null}::bigint)
     ORDER BY chat_id`;
  return rows.map((r) => BigInt(r.chat_id));
}
