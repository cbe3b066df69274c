// One live invoice per order: Pay claims the right to send it by one conditional upsert keyed by
// the press (the callback query's id). Of two taps at once, one claims and the other finds it
// claimed; the same press delivered again, after the bot died between the claim and the send,
// claims it again instead of leaving the order without an invoice for the claim window. The claim
// records the new invoice's nonce: an invoice sent before (tracked or not) is paid no more.
import { utcTimestamp, type Database } from "@orderbot/db";

/** Telegram lets a bot delete its own message for 48 hours; an older invoice is left alone. */
export const DELETABLE_FOR_MS = 48 * 3_600_000;

/**
 * A second Pay within this long of the first finds the invoice already claimed: a double tap sends
 * one invoice. Later, a Pay replaces the invoice (the customer may have deleted it).
 */
export const INVOICE_CLAIM_MS = 60_000;

export type InvoiceClaim =
  /** Send the invoice; `replaces` is the older invoice to delete first, if any. */
  | { status: "send"; replaces: number | null }
  /** An invoice was sent a moment ago (a double tap): send nothing. */
  | { status: "already-sent"; messageId: number | null }
  | { status: "not-found" };

export async function claimInvoice(
  deps: { db: Pick<Database, "order" | "$executeRaw">; clock: { now(): Date } },
  orderId: string,
  press: string,
  nonce: string | null,
): Promise<InvoiceClaim> {
  const { db } = deps;
  const now = deps.clock.now();
  const order = await db.order.findUnique({
    where: { publicId: orderId },
    select: { messages: { select: { invoiceMessageId: true, invoiceSentAt: true } } },
  });
  if (!order) return { status: "not-found" };
  const before = order.messages;
  const claimed = await db.$executeRaw`
    INSERT INTO order_messages (order_public_id, invoice_sent_at, invoice_claimed_by, invoice_nonce)
    VALUES (${orderId}, ${utcTimestamp(now)}, ${press}, ${nonce})
    ON CONFLICT (order_public_id) DO UPDATE
       SET invoice_sent_at = EXCLUDED.invoice_sent_at, invoice_message_id = NULL,
           invoice_claimed_by = EXCLUDED.invoice_claimed_by, invoice_nonce = EXCLUDED.invoice_nonce
     WHERE order_messages.invoice_sent_at IS NULL
        OR order_messages.invoice_sent_at < ${utcTimestamp(new Date(now.getTime() - INVOICE_CLAIM_MS))}
        OR (order_messages.invoice_claimed_by = ${press} AND order_messages.invoice_message_id IS NULL)`;
  if (claimed === 0) return { status: "already-sent", messageId: before?.invoiceMessageId ?? null };
  const sentAt = before?.invoiceSentAt ?? null;
  const deletable = sentAt !== null && now.getTime() - sentAt.getTime() < DELETABLE_FOR_MS;
  return { status: "send", replaces: deletable ? (before?.invoiceMessageId ?? null) : null };
}
