import type { Prisma } from "@orderbot/db";

type OutboxMessage = Prisma.OutboxMessageModel;
import type { CoreDeps } from "../deps.ts";
import { enqueueOutbox, type OutboxMessageInput } from "./messages.ts";

export interface OutboxService {
  /** Queues messages outside any transaction (inside one, use `enqueueOutbox(tx, ...)`). */
  enqueue(messages: OutboxMessageInput[]): Promise<number>;
  /** Pending messages whose next attempt is due, oldest first. The relay runs as one leader. */
  due(limit: number): Promise<OutboxMessage[]>;
  /** PENDING → SENT; false when it was not pending (another relay got there first). */
  markSent(id: number): Promise<boolean>;
  /**
   * The message's word reached the chat another way (the bot's own reply) before any relay took
   * it: PENDING and never attempted → SENT. False when a relay has it already (it may then arrive
   * a second time) or there is no such message.
   */
  settleInline(dedupeKey: string): Promise<boolean>;
  /**
   * Records a failed attempt: retried at `retryAt`, or DEAD after `maxAttempts` (dead letters are
   * reported to operators by the relay). False when it was not pending.
   */
  markFailed(id: number, error: string, retryAt: Date, maxAttempts: number): Promise<boolean>;
}

export function createOutboxService(deps: CoreDeps): OutboxService {
  const { db, clock } = deps;
  return {
    enqueue: (messages) => enqueueOutbox(db, messages),
    due: (limit) =>
      db.outboxMessage.findMany({
        where: { status: "PENDING", nextAttemptAt: { lte: clock.now() } },
        orderBy: [{ nextAttemptAt: "asc" }, { id: "asc" }],
        take: limit,
      }),
    async markSent(id) {
      const { count } = await db.outboxMessage.updateMany({
        where: { id, status: "PENDING" },
        data: { status: "SENT", sentAt: clock.now(), attempts: { increment: 1 } },
      });
      return count === 1;
    },
    async settleInline(dedupeKey) {
      // A relay's claim counts an attempt first: attempts = 0 means no relay has taken it.
      const { count } = await db.outboxMessage.updateMany({
        where: { dedupeKey, status: "PENDING", attempts: 0 },
        data: { status: "SENT", sentAt: clock.now() },
      });
      return count === 1;
    },
    async markFailed(id, error, retryAt, maxAttempts) {
      const lastError = error.slice(0, 500);
      const dead = await db.outboxMessage.updateMany({
        where: { id, status: "PENDING", attempts: { gte: maxAttempts - 1 } },
        data: { status: "DEAD", attempts: { increment: 1 }, lastError },
      });
      if (dead.count === 1) return true;
      const { count } = await db.outboxMessage.updateMany({
        where: { id, status: "PENDING" },
        data: { attempts: { increment: 1 }, lastError, nextAttemptAt: retryAt },
      });
      return count === 1;
    },
  };
}
