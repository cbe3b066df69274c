// What a paid order announces, recorded in the payment's transaction: the operators' paid-order
// alert and the payer's "payment received".
import type { Tx } from "@orderbot/db";
import type { CoreDeps } from "../deps.ts";
import { recordEvent } from "../events/record.ts";
import type { OrderView } from "../views.ts";
import type { Input, LockedOrder } from "./confirm-payment.ts";

/**
 * The delivery key of an order's "payment received" to its payer (settled by the bot's own reply).
 * Not `paid:…`: that prefix is the operators' paid-order alerts (`paid:<order>:<chat>`).
 */
export function paymentNoticeKey(orderPublicId: string): string {
  return `payment-received:${orderPublicId}`;
}

/** A payment that paid its order; `codes` are the masked tails of the digital items it gave. */
export interface PaidOrder {
  input: Input;
  order: LockedOrder;
  view: OrderView;
  codes: readonly string[];
}

/**
 * Records `order.paid` for the operators and `payment.received` for the payer. The event names the
 * order (the worker reads its items and shipping when it sends it), the customer as Telegram
 * showed them, and the codes' masked tails.
 */
export async function announcePaid(tx: Tx, deps: CoreDeps, paid: PaidOrder): Promise<void> {
  const { input, order, view, codes } = paid;
  const customer = { userId: String(order.userId), ...input.customer };
  await recordEvent(
    tx,
    {
      kind: "order.paid",
      orderId: order.publicId,
      // What was paid: the goods, plus shipping for a physical order.
      amountMinor: order.totalMinor + (view.shipping?.shippingMinor ?? 0),
      currency: order.currency,
      customer,
      codeTails: [...codes],
    },
    { dedupeKey: `paid:${order.publicId}` },
    deps.config.fallbackOperatorChatId,
  );
  // The user's confirmation, committed with the payment: if the bot's reply never goes out (it
  // crashed, or Telegram refused it), the worker sends this one when the grace period is over.
  const keys = {
    dedupeKey: `payment.received:${order.publicId}`,
    deliveryKey: paymentNoticeKey(order.publicId),
    notBefore: new Date(deps.clock.now().getTime() + deps.config.paymentNoticeDelayMs),
  };
  const event = { kind: "payment.received", orderId: order.publicId } as const;
  await recordEvent(tx, { ...event, codesDelivered: codes.length > 0 }, keys, undefined);
}
