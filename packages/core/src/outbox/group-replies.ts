// The bot's own replies in an operator group share the group's budget (20 messages a minute) with
// the relay's sends: both are rows of outbox_messages. A reply is sent directly while the budget
// has room, else (or when the direct send fails) it waits in the outbox for the relay, once.
import { runTransaction, type Database, type Prisma } from "@orderbot/db";
import type { Sql } from "../database/sql.ts";

/** Two-int advisory lock space for "one reservation per group at a time", keyed by the chat id. */
export const GROUP_REPLY_LOCK = 0x6a7001;

export interface GroupReplyInput {
  /** One per reply: `reply:<chat>:<update>:<n>`, so a re-delivered update replies nothing new. */
  dedupeKey: string;
  chatId: bigint;
  /** sendMessage's parameters without chat_id (the relay adds it). */
  payload: Prisma.InputJsonObject;
  /** The group's budget: at most `perWindow` sends in any `windowMs`. */
  perWindow: number;
  windowMs: number;
}

/** send: the slot is booked, call Telegram now; queued: the relay sends it; duplicate: done before. */
export type GroupReplyDecision = "send" | "queued" | "duplicate";

/**
 * Books the reply, under the group's advisory lock: a SENT row (the slot) while the group's sends
 * in the window leave room, else a PENDING row for the relay. Either way the row exists before
 * Telegram is called, so a reply is never sent twice.
 */
export async function reserveGroupReply(
  db: Database,
  input: GroupReplyInput,
): Promise<GroupReplyDecision> {
  return runTransaction(db, async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${GROUP_REPLY_LOCK}::int, hashtext(${input.chatId.toString()}))`;
    if (await tx.outboxMessage.findUnique({ where: { dedupeKey: input.dedupeKey } }))
      return "duplicate";
    const [row] = await tx.$queryRaw<{ sent: number }[]>`
      SELECT count(*)::int AS sent FROM outbox_messages
       WHERE chat_id = ${input.chatId} AND status = 'SENT'
         AND sent_at > timezone('UTC', now()) - make_interval(secs => ${input.windowMs / 1000}::float8)`;
    const room = (row?.sent ?? 0) < input.perWindow;
    // The database's clock, as the relay's markOutboxSent uses: one clock for the whole window.
    await tx.$executeRaw`
      INSERT INTO outbox_messages (dedupe_key, chat_id, method, payload, status, sent_at)
      VALUES (${input.dedupeKey}, ${input.chatId}, 'sendMessage', ${JSON.stringify(input.payload)}::jsonb,
              ${room ? "SENT" : "PENDING"}::"OutboxStatus",
              CASE WHEN ${room} THEN timezone('UTC', now()) END)`;
    return room ? "send" : "queued";
  });
}

/**
 * A booked reply whose direct send failed: PENDING for the relay, after `delayMs`; or DEAD when
 * Telegram refused it for good. Either way it no longer counts in the group's budget.
 */
export async function queueGroupReply(
  db: Database,
  dedupeKey: string,
  delayMs: number,
  error: string,
  status: "PENDING" | "DEAD" = "PENDING",
): Promise<void> {
  await db.$executeRaw`
    UPDATE outbox_messages
       SET status = ${status}::"OutboxStatus", sent_at = NULL, last_error = ${error},
           next_attempt_at = timezone('UTC', now()) + make_interval(secs => ${delayMs / 1000}::float8)
     WHERE dedupe_key = ${dedupeKey} AND status = 'SENT'`;
}

/** Replies the bot sent to groups itself lately: the relay's pacer counts them too. */
export async function recentGroupReplies(
  sql: Sql,
  windowMs: number,
): Promise<{ id: number; chatId: bigint; at: number }[]> {
  const rows = await sql.$queryRaw<{ id: number; chat_id: bigint; at: number }[]>`
    SELECT id, chat_id, (EXTRACT(EPOCH FROM sent_at) * 1000)::float8 AS at
      FROM outbox_messages
     WHERE status = 'SENT' AND dedupe_key LIKE 'reply:%'
       AND sent_at > timezone('UTC', now()) - make_interval(secs => ${windowMs / 1000}::float8)
     ORDER BY sent_at`;
  return rows.map((r) => ({ id: r.id, chatId: BigInt(r.chat_id), at: r.at }));
}
