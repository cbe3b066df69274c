// The outbox as the bot uses it. The relay (the worker) claims, sends and settles messages with
// the claim-based functions of claims.ts.
import type { CoreDeps } from "../deps.ts";
import { enqueueOutbox, type OutboxMessageInput } from "./messages.ts";
import { settleEventInline } from "../events/settle-inline.ts";

export type OutboxService = ReturnType<typeof createOutboxService>;

/**
 * @example
 * await shop.outbox.enqueue([{ dedupeKey: "hello:42", chatId: 42n, method: "notify", payload }]);
 * await shop.outbox.settleInline(paymentNoticeKey("K7Q2M9XA")); // the bot said it itself
 */
export function createOutboxService(deps: CoreDeps) {
  const { db, clock } = deps;
  return {
    /** Queues messages outside any transaction (inside one, use `enqueueOutbox(tx, ...)`). */
    enqueue: (messages: OutboxMessageInput[]): Promise<number> => enqueueOutbox(db, messages),
    /**
     * The word of the message, or of the event's delivery, under `dedupeKey` (an event's delivery
     * key) reached the chat another way (the bot's own reply) before any relay took it: it is not
     * sent (settle-inline.ts for an event). False when a relay has it already (it may then arrive
     * a second time) or there is no such message.
     */
    async settleInline(dedupeKey: string): Promise<boolean> {
      // A relay's claim counts an attempt first: attempts = 0 means no relay has taken it.
      const { count } = await db.outboxMessage.updateMany({
        where: { dedupeKey, status: "PENDING", attempts: 0 },
        data: { status: "SENT", sentAt: clock.now() },
      });
      return count === 1 || (await settleEventInline(db, dedupeKey));
    },
  };
}
