// The messages that show an order in its customer's private chat: the card (edited whenever the
// order changes state, so it never offers a button that no longer works) and the one live invoice.
import type { OrderStatus, Tx } from "@orderbot/db";
import { utcTimestamp } from "../database/sql-time.ts";
import type { CoreDeps } from "../deps.ts";
import { enqueueOutbox, type OutboxMessageInput } from "../outbox/messages.ts";

/**
 * A second Pay within this long of the first finds the invoice already claimed: a double tap sends
 * one invoice. Later, a Pay replaces the invoice (the customer may have deleted it).
 */
export const INVOICE_CLAIM_MS = 60_000;
/** Telegram lets a bot delete its own message for 48 hours; an older invoice is left alone. */
export const DELETABLE_FOR_MS = 48 * 3_600_000;

export type InvoiceClaim =
  /** Send the invoice; `replaces` is the older invoice to delete first, if any. */
  | { status: "send"; replaces: number | null }
  /** An invoice was sent a moment ago (a double tap): send nothing. */
  | { status: "already-sent"; messageId: number | null }
  | { status: "not-found" };

export interface OrderMessageIds {
  chatId: bigint;
  cardMessageId: number | null;
  invoiceMessageId: number | null;
  /** The invoice may still be deleted (under 48 hours old). */
  invoiceDeletable: boolean;
}

/** The order's card and invoice message ids, as the bot records them. */
export interface OrderMessages {
  /** The message now showing the order (in the order's own chat only). */
  setCard(orderId: string, chatId: bigint | number, messageId: number): Promise<void>;
  /**
   * Claims the right to send the order's invoice, in one conditional UPDATE: of two taps at once,
   * one claims and the other finds it claimed. `press` names the tap (its callback query id):
   * the same press delivered again, after the bot died between the claim and the send, claims
   * it again instead of leaving the order without an invoice for the claim window.
   */
  claimInvoice(orderId: string, press: string): Promise<InvoiceClaim>;
  /** The invoice went out as `messageId`. */
  invoiceSent(orderId: string, messageId: number): Promise<void>;
  /** Sending failed: the next Pay may try again at once. */
  releaseInvoice(orderId: string): Promise<void>;
  of(orderId: string): Promise<OrderMessageIds | null>;
}

type Deps = Pick<CoreDeps, "db" | "clock">;

export function createOrderMessages(deps: Deps): OrderMessages {
  const { db } = deps;
  return {
    async setCard(orderId, chatId, messageId) {
      await db.order.updateMany({
        where: { publicId: orderId, chatId: BigInt(chatId) },
        data: { cardMessageId: messageId },
      });
    },
    claimInvoice: (orderId, press) => claimInvoice(deps, orderId, press),
    async invoiceSent(orderId, messageId) {
      await db.order.updateMany({
        where: { publicId: orderId },
        data: { invoiceMessageId: messageId },
      });
    },
    async releaseInvoice(orderId) {
      await db.order.updateMany({
        where: { publicId: orderId, invoiceMessageId: null },
        data: { invoiceSentAt: null },
      });
    },
    of: (orderId) => messageIdsOf(deps, orderId),
  };
}

async function claimInvoice(deps: Deps, orderId: string, press: string): Promise<InvoiceClaim> {
  const now = deps.clock.now();
  const before = await deps.db.order.findUnique({
    where: { publicId: orderId },
    select: { invoiceMessageId: true, invoiceSentAt: true },
  });
  if (!before) return { status: "not-found" };
  const { count } = await deps.db.order.updateMany({
    where: {
      publicId: orderId,
      OR: [
        { invoiceSentAt: null },
        { invoiceSentAt: { lt: new Date(now.getTime() - INVOICE_CLAIM_MS) } },
        { invoiceClaimedBy: press, invoiceMessageId: null },
      ],
    },
    data: { invoiceSentAt: now, invoiceMessageId: null, invoiceClaimedBy: press },
  });
  if (count === 0) return { status: "already-sent", messageId: before.invoiceMessageId };
  const deletable =
    before.invoiceSentAt !== null &&
    now.getTime() - before.invoiceSentAt.getTime() < DELETABLE_FOR_MS;
  return { status: "send", replaces: deletable ? before.invoiceMessageId : null };
}

async function messageIdsOf(deps: Deps, orderId: string): Promise<OrderMessageIds | null> {
  const row = await deps.db.order.findUnique({
    where: { publicId: orderId },
    select: { chatId: true, cardMessageId: true, invoiceMessageId: true, invoiceSentAt: true },
  });
  if (!row) return null;
  return {
    chatId: row.chatId,
    cardMessageId: row.cardMessageId,
    invoiceMessageId: row.invoiceMessageId,
    invoiceDeletable:
      row.invoiceSentAt !== null &&
      deps.clock.now().getTime() - row.invoiceSentAt.getTime() < DELETABLE_FOR_MS,
  };
}

/**
 * States the worker shows on the card (the bot edits it itself for paid and cancelled, where the
 * customer is in the conversation): a card never offers Pay or Cancel for an order past them.
 */
const CARD_STATES: ReadonlySet<string> = new Set([
  "EXPIRED",
  "REFUNDED",
  "PROCESSING",
  "SHIPPED",
  "DELIVERED",
]);

/** States in which an order's invoice can no longer be paid. */
const UNPAYABLE: ReadonlySet<string> = new Set(["EXPIRED", "CANCELLED", "REFUNDED"]);

export const cardRefreshKey = (publicId: string, status: string) => `card:${publicId}:${status}`;

/**
 * In the transaction that moved the order to `status`: queues the edit of its card (once per
 * order and state) and the deletion of an invoice that can no longer be paid, while Telegram
 * still allows it (48 hours).
 */
export async function queueCardRefresh(
  tx: Tx,
  orderId: number,
  status: OrderStatus,
  now: Date,
): Promise<void> {
  if (!CARD_STATES.has(status) && !UNPAYABLE.has(status)) return;
  const order = await tx.order.findUnique({
    where: { id: orderId },
    select: {
      publicId: true,
      chatId: true,
      cardMessageId: true,
      invoiceMessageId: true,
      invoiceSentAt: true,
    },
  });
  if (!order) return;
  const messages: OutboxMessageInput[] = [];
  if (order.cardMessageId !== null && CARD_STATES.has(status))
    messages.push({
      dedupeKey: cardRefreshKey(order.publicId, status),
      chatId: order.chatId,
      method: "notify",
      payload: {
        template: "order-card",
        params: { orderId: order.publicId, status },
        edit: { message_id: order.cardMessageId },
      },
    });
  if (order.invoiceMessageId !== null && UNPAYABLE.has(status)) {
    const fresh =
      order.invoiceSentAt !== null &&
      now.getTime() - order.invoiceSentAt.getTime() < DELETABLE_FOR_MS;
    if (fresh)
      messages.push({
        dedupeKey: `invoice-delete:${order.publicId}:${order.invoiceMessageId}`,
        chatId: order.chatId,
        method: "deleteMessage",
        payload: { message_id: order.invoiceMessageId },
      });
    await tx.order.update({ where: { id: orderId }, data: { invoiceMessageId: null } });
  }
  await enqueueOutbox(tx, messages);
}

/**
 * `queueCardRefresh` for a batch of orders that just expired (expire-due.ts moves them in one
 * statement): their cards' edits and their invoices' deletions.
 */
export async function queueExpiredCards(tx: Tx, orderIds: number[], now: Date): Promise<void> {
  if (orderIds.length === 0) return;
  const deletableAfter = new Date(now.getTime() - DELETABLE_FOR_MS);
  await tx.$executeRaw`
    INSERT INTO outbox_messages (dedupe_key, chat_id, method, payload)
    SELECT 'card:' || o.public_id || ':EXPIRED', o.chat_id, 'notify',
           jsonb_build_object(
             'template', 'order-card',
             'params', jsonb_build_object('orderId', o.public_id, 'status', 'EXPIRED'),
             'edit', jsonb_build_object('message_id', o.card_message_id))
    FROM orders o
    WHERE o.id = ANY(${orderIds}::int[]) AND o.card_message_id IS NOT NULL
    ON CONFLICT (dedupe_key) DO NOTHING`;
  await tx.$executeRaw`
    INSERT INTO outbox_messages (dedupe_key, chat_id, method, payload)
    SELECT 'invoice-delete:' || o.public_id || ':' || o.invoice_message_id, o.chat_id, 'deleteMessage',
           jsonb_build_object('message_id', o.invoice_message_id)
    FROM orders o
    WHERE o.id = ANY(${orderIds}::int[]) AND o.invoice_message_id IS NOT NULL
      AND o.invoice_sent_at > ${utcTimestamp(deletableAfter)}
    ON CONFLICT (dedupe_key) DO NOTHING`;
  await tx.$executeRaw`
    UPDATE orders SET invoice_message_id = NULL
    WHERE id = ANY(${orderIds}::int[]) AND invoice_message_id IS NOT NULL`;
}
