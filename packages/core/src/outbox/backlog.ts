// What the outbox holds, read without claiming anything: the backlog's figures for metrics, a
// lookup by dedupe key, and the recent sends a new relay leader paces from. Figures and sends count
// the events' deliveries too.
import type { Sql } from "../database/sql.ts";

export interface OutboxStats {
  pending: number;
  /** Age of the oldest PENDING message (s); 0 when there is none. */
  oldestPendingAgeSeconds: number;
  dead: number;
}

export async function outboxStats(sql: Sql): Promise<OutboxStats> {
  const [row] = await sql.$queryRaw<{ pending: number; oldest: number | null; dead: number }[]>`
    SELECT count(*) FILTER (WHERE status = 'PENDING')::int AS pending,
           EXTRACT(EPOCH FROM timezone('UTC', now()) - min(created_at) FILTER (WHERE status = 'PENDING'))::float8 AS oldest,
           count(*) FILTER (WHERE status = 'DEAD')::int AS dead
      FROM (SELECT status, created_at FROM outbox_messages WHERE status IN ('PENDING', 'DEAD')
            UNION ALL
            SELECT status, created_at FROM deliveries WHERE status IN ('PENDING', 'DEAD')) m`;
  return {
    pending: row?.pending ?? 0,
    oldestPendingAgeSeconds: Math.max(0, row?.oldest ?? 0),
    dead: row?.dead ?? 0,
  };
}

/** Whether a message with this dedupe key was ever queued (whatever became of it). */
export async function outboxHas(sql: Sql, dedupeKey: string): Promise<boolean> {
  return (await sql.outboxMessage.count({ where: { dedupeKey } })) > 0;
}

/** Messages sent in the last `windowMs`, oldest first: what a new relay leader's pacing starts from. */
export async function recentSends(
  sql: Sql,
  windowMs: number,
): Promise<{ chatId: bigint; at: number }[]> {
  const rows = await sql.$queryRaw<{ chat_id: bigint; at: number }[]>`
    WITH since AS (SELECT timezone('UTC', now()) - make_interval(secs => ${windowMs / 1000}::float8) AS t)
    SELECT chat_id, (EXTRACT(EPOCH FROM sent_at) * 1000)::float8 AS at
      FROM (SELECT chat_id, sent_at FROM outbox_messages, since WHERE status = 'SENT' AND sent_at > since.t
            UNION ALL
            SELECT chat_id, sent_at FROM deliveries, since WHERE status = 'SENT' AND sent_at > since.t) s
     ORDER BY sent_at`;
  return rows.map((r) => ({ chatId: BigInt(r.chat_id), at: r.at }));
}
