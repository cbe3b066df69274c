import type { Sql } from "../database/sql.ts";

/**
 * Deletes up to `limit` SENT messages sent more than `keepMs` ago; returns how many. A sent
 * message's dedupe key only has to outlive the retries of whoever queued it (minutes), so a week
 * leaves room to look into a complaint and still bounds the table.
 *
 * DEAD messages are never deleted here: a dead letter is a customer's or an operator's word that
 * never arrived, and nothing records that someone dealt with it. Keeping them is cheap (a broken
 * chat is rare, and the count is an alert), deleting one would lose the only trace.
 */
export async function pruneSentOutbox(sql: Sql, keepMs: number, limit: number): Promise<number> {
  // The ctid sub-select keeps each DELETE to one bounded batch (PostgreSQL has no DELETE ... LIMIT);
  // outbox_messages_sent_at_idx makes it an index range scan, not a walk over the whole table.
  return sql.$executeRaw`
    DELETE FROM outbox_messages WHERE ctid IN (
      SELECT ctid FROM outbox_messages
       WHERE status = 'SENT'
         AND sent_at < timezone('UTC', now()) - make_interval(secs => ${keepMs / 1000}::float8)
       LIMIT ${limit})`;
}

/**
 * Deletes up to `limit` events expanded more than `keepMs` ago whose deliveries were all sent (a
 * dead one keeps its event), their deliveries with them; returns how many events.
 */
export async function pruneDeliveredEvents(
  sql: Sql,
  keepMs: number,
  limit: number,
): Promise<number> {
  return sql.$executeRaw`
    DELETE FROM events WHERE id IN (
      SELECT e.id FROM events e
       WHERE e.expanded_at < timezone('UTC', now()) - make_interval(secs => ${keepMs / 1000}::float8)
         AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = e.id AND d.status <> 'SENT')
       LIMIT ${limit})`;
}
