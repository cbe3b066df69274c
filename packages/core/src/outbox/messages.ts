import type { Database, Tx } from "@orderbot/db";

/**
 * What the outbox carries. `method` names what the relay does with `payload`:
 * - `notify`: tell `chatId` what happened: `template` names the event, `params` its ids and facts.
 *   The worker renders it when it sends it, in the recipient's language, with the buttons the
 *   event calls for (@orderbot/conversation): a row holds no words.
 * - `refundStarPayment`: call the Bot API method of that name with `payload` as its parameters.
 */
export type OutboxMessageInput = (
  | { method: "notify"; payload: NotifyPayload }
  | { method: "refundStarPayment"; payload: RefundStarPaymentPayload }
  /** The order can no longer be paid: its invoice, if one is live, is deleted. */
  | { method: "voidInvoice"; payload: { orderId: string } }
) & {
  dedupeKey: string;
  chatId: bigint;
  /** Not sent before this time (default: at once). */
  notBefore?: Date;
};

/**
 * What a `notify` row tells. This release records the customer notices (order-expired,
 * payment-received, order-refunded, payment-refunded, order-status, support-answer) and the ledger
 * finding as events (../events/kinds.ts): rows of theirs are the previous release's, still sent.
 */
export type NotificationTemplate =
  /** To the user: a reservation ran out and its stock went back on sale. */
  | "order-expired"
  /**
   * To the user: their payment is recorded. Queued with the payment, due after a grace period in
   * which the bot's own reply normally says it first and settles it (`OutboxService.settleInline`).
   */
  | "payment-received"
  /** To the user: an operator refunded a paid order. */
  | "order-refunded"
  /** To the user: the codes, keys or links a paid digital order bought (delivery/queue-delivery.ts). */
  | "digital-delivery"
  /** To the user: a payment could not be applied (late, duplicate, wrong amount) and is refunded. */
  | "payment-refunded"
  /** To the user: an operator moved their paid order on (processing, shipped with a note, delivered). */
  | "order-status"
  /** To operators: an order was paid; carries the buttons for its next step. */
  | "operator-order-paid"
  /** To operators: a payment needs a refund (a provider other than Stars must be refunded by hand). */
  | "operator-refund-needed"
  /** To operators: Telegram reported a refund the shop did not make (`refunded_payment`). */
  | "operator-refunded-outside"
  /** To operators (from the worker): Telegram's Stars ledger and the payments table differ. */
  | "operator-ledger-finding"
  /** To the user, as an edit of the order's card, if one shows it: its state now (orders/move-events.ts). */
  | "order-card"
  /** To the user: an operator's answer to their support request (a reply to its alert). */
  | "support-answer"
  /** To operators: a customer asked for help (/paysupport), with their latest orders. */
  | "operator-support-request"
  /** To operators: a product's stock fell to the group's low-stock threshold or ran out. */
  | "operator-low-stock"
  /** To operators (from the worker): a message failed for good and went to the dead letters. */
  | "operator-dead-letter"
  /** To operators (from the worker): a day's figures, once per group and day. */
  | "operator-daily-report";

export interface NotifyPayload {
  template: NotificationTemplate;
  params: Record<string, string | number>;
}

export interface RefundStarPaymentPayload {
  /** Telegram user ids fit in 52 bits: a JSON number is exact. */
  user_id: number;
  telegram_payment_charge_id: string;
}

/**
 * Alerts that wait behind every other message: a customer's question must never hold back a
 * paid-order or refund alert in a group that takes 20 messages a minute.
 */
const LATE_TEMPLATES: ReadonlySet<NotificationTemplate> = new Set(["operator-support-request"]);

/** The message's lane: the relay claims lane 0 before lane 1 (`claimDueOutbox`). */
export function laneOf(m: OutboxMessageInput): 0 | 1 {
  return m.method === "notify" && LATE_TEMPLATES.has(m.payload.template) ? 1 : 0;
}

/**
 * Queues messages to be sent after the commit, in one INSERT, inside the caller's transaction (or
 * on its own, atomically). The dedupe key is unique: a message already queued (by a retry, a second
 * worker, a replayed update) is skipped, the ON CONFLICT DO NOTHING way. Returns how many were
 * queued now: for a single message, 1 if it is new and 0 if it was there already.
 */
export async function enqueueOutbox(
  tx: Tx | Database,
  messages: readonly OutboxMessageInput[],
): Promise<number> {
  if (messages.length === 0) return 0;
  const { count } = await tx.outboxMessage.createMany({
    data: messages.map((m) => ({
      dedupeKey: m.dedupeKey,
      chatId: m.chatId,
      method: m.method,
      payload: { ...m.payload },
      lane: laneOf(m),
      ...(m.notBefore ? { nextAttemptAt: m.notBefore } : {}),
    })),
    skipDuplicates: true,
  });
  return count;
}
