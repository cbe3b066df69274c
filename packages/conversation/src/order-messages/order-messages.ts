// The messages that show an order in its customer's private chat (table order_messages): the card,
// edited whenever the order changes state so it never offers a button that no longer works, and
// the one live invoice. Core queues the events (`order-card`, `voidInvoice`); the relay finds
// their messages here when it sends them.
import type { Database } from "@orderbot/db";
import { claimInvoice, DELETABLE_FOR_MS, type InvoiceClaim } from "./invoice-claim.ts";

export interface OrderMessageIds {
  cardMessageId: number | null;
  invoiceMessageId: number | null;
  /** The invoice may still be deleted (under 48 hours old). */
  invoiceDeletable: boolean;
}

export type OrderMessages = ReturnType<typeof createOrderMessages>;

export interface OrderMessagesDeps {
  db: Pick<Database, "order" | "orderMessages" | "$executeRaw">;
  clock: { now(): Date };
}

export function createOrderMessages(deps: OrderMessagesDeps) {
  const { db } = deps;
  return {
    /** The message now showing the order (in the order's own chat only). */
    async setCard(orderId: string, chatId: bigint | number, messageId: number): Promise<void> {
      await db.$executeRaw`
        INSERT INTO order_messages (order_public_id, card_message_id)
        SELECT public_id, ${messageId} FROM orders
         WHERE public_id = ${orderId} AND chat_id = ${BigInt(chatId)}
        ON CONFLICT (order_public_id) DO UPDATE SET card_message_id = EXCLUDED.card_message_id`;
    },
    /**
     * invoice-claim.ts: the right to send the order's invoice, one press at a time; `nonce` (null: a
     * bare order id) is the new invoice's, and from now on the only one paid.
     */
    claimInvoice: (orderId: string, press: string, nonce: string | null): Promise<InvoiceClaim> =>
      claimInvoice(deps, orderId, press, nonce),
    /** The invoice went out as `messageId`. */
    async invoiceSent(orderId: string, messageId: number): Promise<void> {
      await db.orderMessages.updateMany({
        where: { orderPublicId: orderId },
        data: { invoiceMessageId: messageId },
      });
    },
    /** Sending failed: the next Pay may try again at once. */
    async releaseInvoice(orderId: string): Promise<void> {
      await db.orderMessages.updateMany({
        where: { orderPublicId: orderId, invoiceMessageId: null },
        data: { invoiceSentAt: null },
      });
    },
    /** Whether the invoice with this nonce is the order's live one (null: a bare order id). */
    async isLiveInvoice(orderId: string, nonce: string | null): Promise<boolean> {
      const row = await db.orderMessages.findUnique({
        where: { orderPublicId: orderId },
        select: { invoiceNonce: true },
      });
      // No row: no invoice was claimed here; the previous release's (a bare id) is live.
      return (row?.invoiceNonce ?? null) === nonce;
    },
    /** Null: no message shows the order. */
    async of(orderId: string): Promise<OrderMessageIds | null> {
      const row = await db.orderMessages.findUnique({ where: { orderPublicId: orderId } });
      if (!row) return null;
      const age = row.invoiceSentAt && deps.clock.now().getTime() - row.invoiceSentAt.getTime();
      return {
        cardMessageId: row.cardMessageId,
        invoiceMessageId: row.invoiceMessageId,
        invoiceDeletable: age !== null && age < DELETABLE_FOR_MS,
      };
    },
  };
}
