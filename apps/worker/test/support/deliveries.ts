// The deliveries the relay expanded from events, by key prefix: `<event key>:<chat>`.
import type { Database } from "@orderbot/db";

export interface DeliveryRow {
  id: number;
  dedupeKey: string;
  chatId: bigint;
  status: string;
}

export async function deliveriesOf(db: Database, prefix: string): Promise<DeliveryRow[]> {
  const rows = await db.$queryRaw<
    { id: number; dedupe_key: string; chat_id: bigint; status: string }[]
  >`SELECT id, dedupe_key, chat_id, status::text FROM deliveries
     WHERE starts_with(dedupe_key, ${prefix}) ORDER BY dedupe_key`;
  return rows.map((r) => ({
    id: r.id,
    dedupeKey: r.dedupe_key,
    chatId: BigInt(r.chat_id),
    status: r.status,
  }));
}

/** How many events were recorded under `dedupeKey` (0 or 1). */
export async function eventsWithKey(db: Database, dedupeKey: string): Promise<number> {
  const [row] = await db.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM events WHERE dedupe_key = ${dedupeKey}`;
  return row?.n ?? 0;
}
