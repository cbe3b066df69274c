// What happened, as data: each kind of event and the ids and facts it carries. No words, no
// language, no recipient: who hears of it is the recipient rule's (recipients.ts), and the words
// are the reader's, rendered when a delivery is sent (@orderbot/conversation).
import { z } from "zod";

const money = { amountMinor: z.number().int(), currency: z.string().length(3) };

/** Who a customer is as Telegram showed them: the renderer decides how much of it operators see. */
const customer = z.object({
  userId: z.string().regex(/^\d+$/),
  /** Absent: the update named nobody (a late charge). */
  name: z.string().optional(),
  username: z.string().optional(),
});

const orderLine = z.object({ orderId: z.string(), status: z.string(), ...money });

export const eventSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("order.paid"),
    orderId: z.string(),
    ...money,
    customer,
    /** The masked tails of the digital items the payment gave. */
    codeTails: z.array(z.string()),
  }),
  z.object({
    kind: z.literal("question.asked"),
    requestId: z.number().int(),
    topic: z.string(),
    customer,
    text: z.string(),
    /** The customer's latest orders, newest first. */
    orders: z.array(orderLine),
  }),
  z.object({
    kind: z.literal("stock.low"),
    sku: z.string(),
    titleEn: z.string(),
    titleZh: z.string(),
    stock: z.number().int(),
  }),
  z.object({
    kind: z.literal("refund.needed"),
    /** "" for a charge whose invoice named no order. */
    orderId: z.string(),
    /** A RefundReason; absent when the worker found the refund without one. */
    reason: z.string().optional(),
    ...money,
    telegramChargeId: z.string(),
    /** 1: the bot refunds it itself (Stars); 0: an operator must. */
    automatic: z.union([z.literal(0), z.literal(1)]),
  }),
  z.object({
    kind: z.literal("refund.outside"),
    ...money,
    telegramChargeId: z.string(),
    /** "" when no order of the shop's had the charge. */
    orderId: z.string(),
    /** The order's status after the refund; "" with no order. */
    orderStatus: z.string(),
  }),
  z.object({
    kind: z.literal("ledger.finding"),
    /** Telegram's Stars ledger and the payments table differ (star_ledger_findings). */
    findingId: z.number().int(),
    /** What differs: the finding's kind. */
    finding: z.string(),
    telegramChargeId: z.string(),
    /** In Stars; absent when that side has no record. */
    telegramAmount: z.number().int().optional(),
    shopAmount: z.number().int().optional(),
  }),
  // Told to the customer the ids name (the order's or the request's), not to operators.
  z.object({
    kind: z.literal("order.expired"),
    orderId: z.string(),
  }),
  z.object({
    kind: z.literal("order.moved"),
    /** An operator moved this paid order on: PROCESSING, SHIPPED or DELIVERED. */
    orderId: z.string(),
    status: z.enum(["PROCESSING", "SHIPPED", "DELIVERED"]),
    /** What the operator added (a tracking number); "" for none. */
    note: z.string(),
  }),
  z.object({
    kind: z.literal("payment.received"),
    /** The payer's order is paid: due after a grace in which the bot's reply says it first. */
    orderId: z.string(),
    /** Whether the payment gave digital items (their codes go in messages of their own). */
    codesDelivered: z.boolean(),
  }),
  z.object({
    kind: z.literal("order.refunded"),
    /** An operator refunded this paid order. */
    orderId: z.string(),
    ...money,
    telegramChargeId: z.string(),
  }),
  z.object({
    kind: z.literal("payment.rejected"),
    /** The payment could not be applied and is refunded; "" when its invoice named no order. */
    orderId: z.string(),
    /** A RefundReason. */
    reason: z.string(),
    ...money,
    /** With no order, the payer (the payment's user) is told. */
    telegramChargeId: z.string(),
  }),
  z.object({
    kind: z.literal("question.answered"),
    requestId: z.number().int(),
    /** The operator's answer, as they wrote it. */
    text: z.string(),
  }),
]);

export type ShopEvent = z.infer<typeof eventSchema>;
export type EventKind = ShopEvent["kind"];

/**
 * Kinds told to the customer the ids name, not to operators: the recipient rule's customer branch
 * (`customer_event_kinds`, migration 20261210000000_customer_events) lists the same.
 */
export const CUSTOMER_KINDS: ReadonlySet<EventKind> = new Set([
  "order.expired",
  "order.moved",
  "order.refunded",
  "payment.received",
  "payment.rejected",
  "question.answered",
]);

/** Events operators wait behind every other message for (the relay's lane 1). */
export const LATE_KINDS: ReadonlySet<EventKind> = new Set(["question.asked"]);
