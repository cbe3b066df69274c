import { runTransaction, type Database } from "@orderbot/db";

export interface GroupMigration {
  /** Whether a binding was moved now (false: nothing bound at the old id, e.g. a second run). */
  moved: boolean;
  /** Outbox messages (pending and dead) readdressed to the new id. */
  messages: number;
}

/**
 * A group upgraded to a supergroup gets a new chat id (Telegram's `migrate_to_chat_id`). In one
 * transaction: the binding with its settings and admin list moves to the new id, and so does
 * every outbox message still addressed to the old one (pending ones would fail there for good,
 * and a dead letter must stay retryable). Idempotent: a second run (the `migrate_from_chat_id`
 * message of the same upgrade, a re-delivery, another replica) finds nothing left to move.
 * A binding already at the new id (someone ran /bind there first) wins over the old one.
 */
export async function migrateGroup(
  db: Database,
  input: { fromChatId: bigint; toChatId: bigint },
): Promise<GroupMigration> {
  const { fromChatId, toChatId } = input;
  return runTransaction(db, async (tx) => {
    // Locks the old row (if any), so two replicas moving it at once do it once.
    const old = await tx.$queryRaw<{ chat_id: bigint }[]>`
      SELECT chat_id FROM operator_groups WHERE chat_id = ${fromChatId} FOR UPDATE`;
    let moved = false;
    if (old.length === 1) {
      const inserted = await tx.$executeRaw`
        INSERT INTO operator_groups
               (chat_id, title, settings, version, admin_ids, admins_refreshed_at, bound_by, created_at, updated_at)
        SELECT ${toChatId}, title, settings, version, admin_ids, NULL, bound_by, created_at, now()
          FROM operator_groups WHERE chat_id = ${fromChatId}
        ON CONFLICT (chat_id) DO NOTHING`;
      await tx.$executeRaw`DELETE FROM operator_groups WHERE chat_id = ${fromChatId}`;
      moved = inserted === 1;
    }
    const messages = await tx.$executeRaw`
      UPDATE outbox_messages SET chat_id = ${toChatId}
       WHERE chat_id = ${fromChatId} AND status IN ('PENDING', 'DEAD')`;
    const deliveries = await tx.$executeRaw`
      UPDATE deliveries d SET chat_id = ${toChatId}
       WHERE d.chat_id = ${fromChatId} AND d.status IN ('PENDING', 'DEAD')
         AND NOT EXISTS (SELECT 1 FROM deliveries o WHERE o.event_id = d.event_id AND o.chat_id = ${toChatId})`;
    return { moved, messages: messages + deliveries };
  });
}

/**
 * The bot was removed from an operator group: every message still pending for it would fail
 * with 403 (and a 403 raises no dead-letter alert), so they become dead letters now, counted in
 * the outbox's dead gauge (OrderbotOutboxDeadLetters) instead of failing one by one unseen.
 * Returns how many.
 */
export async function deadLetterGroupOutbox(
  db: Database,
  input: { chatId: bigint; reason: string },
): Promise<number> {
  const messages = await db.$executeRaw`
    UPDATE outbox_messages SET status = 'DEAD', last_error = ${input.reason}
     WHERE chat_id = ${input.chatId} AND status = 'PENDING'`;
  const deliveries = await db.$executeRaw`
    UPDATE deliveries SET status = 'DEAD', last_error = ${input.reason}
     WHERE chat_id = ${input.chatId} AND status = 'PENDING'`;
  return messages + deliveries;
}
