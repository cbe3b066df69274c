// Events into deliveries: one per recipient the rule names (event_recipients, migration
// 20261209000000_events). One statement expands up to `eventsPerStatement` events by up to
// `batchSize` recipients each, in chat id order from where the event's last batch stopped, so an
// event for 10,000 chats takes a few statements and a thousand one-chat events take a few too. The
// events' row locks (SKIP LOCKED) keep two expanders apart; were they not, the unique (event, chat)
// and delivery keys would still let each recipient in once.
import type { Database } from "@orderbot/db";
import { LATE_KINDS } from "./kinds.ts";

export interface ExpandOptions {
  /** Recipients per event and statement. */
  batchSize: number;
  /** Events per statement (default 100). */
  eventsPerStatement?: number;
  /** OPERATOR_GROUP_ID: the recipient when no group is bound. */
  fallbackChat: bigint | undefined;
  /** Stop after this many statements: the caller runs again later. */
  maxBatches: number;
}

/** Expands due events; returns how many deliveries it wrote. */
export async function expandEvents(db: Database, options: ExpandOptions): Promise<number> {
  let written = 0;
  for (let batch = 0; batch < options.maxBatches; batch++) {
    const step = await expandBatch(db, options);
    written += step.written;
    if (step.events === 0) break;
  }
  return written;
}

async function expandBatch(
  db: Database,
  options: ExpandOptions,
): Promise<{ events: number; written: number }> {
  const late = [...LATE_KINDS];
  const [row] = await db.$queryRaw<{ events: number; written: number }[]>`
    WITH due AS (
      SELECT id, kind, delivery_key, payload, expanded_to FROM events
       WHERE expanded_at IS NULL AND (not_before IS NULL OR not_before <= timezone('UTC', now()))
       ORDER BY id LIMIT ${options.eventsPerStatement ?? 100}
         FOR UPDATE SKIP LOCKED),
    ranked AS (
      SELECT d.id AS event_id, d.kind, d.delivery_key, r.chat_id, r.params,
             row_number() OVER (PARTITION BY d.id ORDER BY r.chat_id) AS n
        FROM due d
       CROSS JOIN LATERAL event_recipients(d.kind, d.payload, ${options.fallbackChat ?? null}::bigint) r
       WHERE d.expanded_to IS NULL OR r.chat_id > d.expanded_to),
    batch AS (SELECT * FROM ranked WHERE n <= ${options.batchSize}),
    written AS (
      INSERT INTO deliveries (event_id, chat_id, dedupe_key, lane, params)
      SELECT event_id, chat_id, delivery_key || ':' || chat_id,
             CASE WHEN kind = ANY(${late}::text[]) THEN 1 ELSE 0 END, params
        FROM batch
      ON CONFLICT DO NOTHING RETURNING 1),
    progress AS (
      SELECT d.id, count(b.chat_id) AS taken, max(b.chat_id) AS last
        FROM due d LEFT JOIN batch b ON b.event_id = d.id GROUP BY d.id),
    moved AS (
      UPDATE events e
         SET expanded_to = coalesce(p.last, e.expanded_to),
             expanded_at = CASE WHEN p.taken < ${options.batchSize} THEN timezone('UTC', now()) END
        FROM progress p WHERE e.id = p.id RETURNING 1)
    SELECT (SELECT count(*)::int FROM moved) AS events, (SELECT count(*)::int FROM written) AS written`;
  return { events: row?.events ?? 0, written: row?.written ?? 0 };
}
