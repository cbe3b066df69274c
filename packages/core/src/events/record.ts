// The one writer of events. It takes a transaction, never the bare client: an event is recorded
// with the change it reports, or not at all. The SQL function it calls is the low-stock trigger's
// writer too (migration 20261209000000_events).
import { Prisma, utcTimestamp, type Tx } from "@orderbot/db";
import { eventSchema, type ShopEvent } from "./kinds.ts";

export interface EventKeys {
  /** One event per key: a replayed change records nothing new. */
  dedupeKey: string;
  /** Its deliveries' key (the chat is appended): events sharing it reach a chat once. Default: `dedupeKey`. */
  deliveryKey?: string;
  /** Not told before this time (default: at once); until then it may be told inline (settle-inline.ts). */
  notBefore?: Date;
}

/**
 * Records `event`, checked against its kind's schema (a bad one throws: it is a bug), inside the
 * caller's transaction. Returns how many chats the recipient rule names now, 0 if the event was
 * recorded before. `fallbackChat`: OPERATOR_GROUP_ID.
 */
export async function recordEvent(
  tx: Tx,
  event: ShopEvent,
  keys: EventKeys,
  fallbackChat: bigint | undefined,
): Promise<number> {
  const { kind, ...facts } = eventSchema.parse(event);
  const payload = JSON.stringify(facts);
  const notBefore = keys.notBefore ? utcTimestamp(keys.notBefore) : Prisma.sql`NULL::timestamp(3)`;
  const [row] = await tx.$queryRaw<{ recorded: boolean; recipients: number }[]>`
    SELECT record_event(${kind}, ${keys.dedupeKey}, ${keys.deliveryKey ?? keys.dedupeKey},
                        ${payload}::jsonb, ${notBefore}) AS recorded,
           (SELECT count(*)::int FROM event_recipients(${kind}, ${payload}::jsonb,
                                                       ${fallbackChat ?? null}::bigint)) AS recipients`;
  return row?.recorded ? row.recipients : 0;
}

/**
 * Records many events in one statement, each checked as `recordEvent` checks it (a set-based
 * change, such as a batch of expiries, records its events at once). Returns how many chats the
 * recipient rule names now for the events recorded now.
 */
export async function recordEvents(
  tx: Tx,
  entries: readonly { event: ShopEvent; keys: Omit<EventKeys, "notBefore"> }[],
  fallbackChat: bigint | undefined,
): Promise<number> {
  if (entries.length === 0) return 0;
  const rows = entries.map(({ event, keys }) => {
    const { kind, ...facts } = eventSchema.parse(event);
    return { kind, payload: JSON.stringify(facts), ...keys };
  });
  const [row] = await tx.$queryRaw<{ recipients: number }[]>`
    WITH e AS (
      SELECT * FROM unnest(${rows.map((r) => r.kind)}::text[], ${rows.map((r) => r.dedupeKey)}::text[],
                           ${rows.map((r) => r.deliveryKey ?? r.dedupeKey)}::text[],
                           ${rows.map((r) => r.payload)}::text[]) AS e(kind, dedupe_key, delivery_key, payload)),
    recorded AS MATERIALIZED (
      SELECT e.kind, e.payload::jsonb AS payload,
             record_event(e.kind, e.dedupe_key, e.delivery_key, e.payload::jsonb) AS new
        FROM e)
    SELECT coalesce(sum((SELECT count(*) FROM event_recipients(r.kind, r.payload, ${fallbackChat ?? null}::bigint))), 0)::int
           AS recipients
      FROM recorded r WHERE r.new`;
  return row?.recipients ?? 0;
}
