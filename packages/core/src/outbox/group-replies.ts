// The bot's own replies in an operator group share the group's budget (20 messages a minute) with
// the relay's sends: both are rows of outbox_messages. A reply is sent directly while the budget
// has room, else (or when the direct send fails) it waits in the outbox for the relay. A direct
// send is booked as an in-flight claim, as the relay claims a row: a bot that dies before the
// send is recorded leaves the reply to the relay once the claim passes. Like the relay's sends, a
// reply is never lost, and is sent twice only when the bot dies between Telegram's answer and the
// record of it.
import { Prisma, runTransaction, type Database } from "@orderbot/db";
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
  /** How long a direct send hides its row from the relay: longer than the send's own timeout. */
  claimMs: number;
}

/** The group's sends that use its budget: sent, or booked for a direct send still in flight. */
const IN_BUDGET = Prisma.sql`status IN ('SENT', 'PENDING') AND sent_at IS NOT NULL`;

/** send: the slot is booked, call Telegram now; queued: the relay sends it; duplicate: done before. */
export type GroupReplyDecision = "send" | "queued" | "duplicate";

/**
 * Books the reply, under the group's advisory lock. While the group's sends in the window leave
 * room: a row with its slot taken (`sent_at`) and hidden from the relay for `claimMs`, to be
 * confirmed by `confirmGroupReply`; else a PENDING row for the relay. Either way the row exists
 * before Telegram is called: a re-delivered update finds it and replies nothing new.
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
       WHERE chat_id = ${input.chatId} AND ${IN_BUDGET}
         AND sent_at > timezone('UTC', now()) - make_interval(secs => ${input.windowMs / 1000}::float8)`;
    const room = (row?.sent ?? 0) < input.perWindow;
    // The database's clock, as the relay's markOutboxSent uses: one clock for the whole window.
    await tx.$executeRaw`
      INSERT INTO outbox_messages (dedupe_key, chat_id, method, payload, attempts, sent_at, next_attempt_at)
      VALUES (${input.dedupeKey}, ${input.chatId}, 'sendMessage', ${JSON.stringify(input.payload)}::jsonb,
              ${room ? 1 : 0},
              CASE WHEN ${room} THEN timezone('UTC', now()) END,
              timezone('UTC', now()) + make_interval(secs => ${room ? input.claimMs / 1000 : 0}::float8))`;
    return room ? "send" : "queued";
  });
}

/** A booked reply that Telegram took: SENT, its slot kept. */
export async function confirmGroupReply(db: Database, dedupeKey: string): Promise<void> {
  await db.$executeRaw`
    UPDATE outbox_messages SET status = 'SENT'
     WHERE dedupe_key = ${dedupeKey} AND status = 'PENDING' AND sent_at IS NOT NULL`;
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
     WHERE dedupe_key = ${dedupeKey} AND status = 'PENDING' AND sent_at IS NOT NULL`;
}

/** Replies the bot sent to groups itself lately, or is sending: the relay's pacer counts them too. */
export async function recentGroupReplies(
  sql: Sql,
  windowMs: number,
): Promise<{ id: number; chatId: bigint; at: number }[]> {
  const rows = await sql.$queryRaw<{ id: number; chat_id: bigint; at: number }[]>`
    SELECT id, chat_id, (EXTRACT(EPOCH FROM sent_at) * 1000)::float8 AS at
      FROM outbox_messages
     WHERE ${IN_BUDGET} AND dedupe_key LIKE 'reply:%'
       AND sent_at > timezone('UTC', now()) - make_interval(secs => ${windowMs / 1000}::float8)
     ORDER BY sent_at`;
  return rows.map((r) => ({ id: r.id, chatId: BigInt(r.chat_id), at: r.at }));
}
