// What operators are sent, as the relay would claim it: the events recorded so far expanded into
// deliveries, each with its key, its chat and its event's facts (plus what the recipient rule added).
import type { Database } from "@orderbot/db";
import { expandEvents } from "../../src/events/index.ts";

export interface SentDelivery {
  dedupeKey: string;
  chatId: bigint;
  kind: string;
  payload: Record<string, unknown>;
}

/** Deliveries whose key starts with `prefix`, in key order; `fallbackChat`: OPERATOR_GROUP_ID. */
export async function deliveries(
  db: Database,
  prefix: string,
  fallbackChat?: bigint,
): Promise<SentDelivery[]> {
  await expandEvents(db, { batchSize: 1_000, maxBatches: 100, fallbackChat });
  const rows = await db.$queryRaw<
    { dedupe_key: string; chat_id: bigint; kind: string; payload: Record<string, unknown> }[]
  >`
    SELECT d.dedupe_key, d.chat_id, e.kind, e.payload || d.params AS payload
      FROM deliveries d JOIN events e ON e.id = d.event_id
     WHERE starts_with(d.dedupe_key, ${prefix}) ORDER BY d.dedupe_key`;
  return rows.map((r) => ({
    dedupeKey: r.dedupe_key,
    chatId: BigInt(r.chat_id),
    kind: r.kind,
    payload: r.payload,
  }));
}
