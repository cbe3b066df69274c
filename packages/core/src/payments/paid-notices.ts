// What a paid order announces, queued in the payment's transaction: the operators' paid-order
// alert and the payer's "payment received".
import type { Tx } from "@orderbot/db";
import type { CoreDeps } from "../deps.ts";
import { fulfilmentButtons } from "../fulfilment/buttons.ts";
import { formatMoney } from "../money.ts";
import { enqueueOperatorAlert, enqueueOutbox } from "../outbox/messages.ts";
import type { OrderView } from "../views.ts";
import { shippingText, showPhoneButton } from "../shipping/operator-text.ts";
import type { Input, LockedOrder } from "./confirm-payment.ts";

/**
 * How long the queued "payment received" waits for the bot's own reply to say it first (and
 * settle it). Longer than a reply takes even when Telegram is slow; short enough that a user whose
 * reply was lost (a crash, a failed send) hears within half a minute.
 */
export const PAYMENT_NOTICE_GRACE_MS = 20_000;

/**
 * The outbox key of an order's "payment received" to its user (settled by the bot's own reply).
 * Not `paid:…`: that prefix is the operators' paid-order alerts (`paid:<order>:<chat>`).
 */
export function paymentNoticeKey(orderPublicId: string): string {
  return `payment-received:${orderPublicId}`;
}

/** A payment that paid its order; `codes` are the digital items given, masked ("" for none). */
export interface PaidOrder {
  input: Input;
  order: LockedOrder;
  view: OrderView;
  codes: string;
}

/** Queues the operators' alert (with the next step's buttons) and the payer's confirmation. */
export async function announcePaid(tx: Tx, deps: CoreDeps, paid: PaidOrder): Promise<void> {
  const { input, order, view, codes } = paid;
  // With the buttons of the next step (processing, shipped): features/operator/fulfilment.ts.
  await enqueueOperatorAlert(
    tx,
    deps,
    `paid:${order.publicId}`,
    "operator-order-paid",
    {
      orderId: order.publicId,
      // What was paid: the goods, plus shipping for a physical order.
      amountMinor: order.totalMinor + (view.shipping?.shippingMinor ?? 0),
      currency: order.currency,
      // What to pack and for whom: the items in both languages (the worker shows the group's),
      // the customer as operators may see them (the last four digits of their id).
      itemsEn: withShipping(deps, view, "en") + codes,
      itemsZh: withShipping(deps, view, "zh") + codes,
      customer: customerLabel(order.userId, input.customer),
    },
    [
      ...fulfilmentButtons(order.publicId, "PAID"),
      ...(view.shipping?.hasContact ? [showPhoneButton(order.publicId)] : []),
    ],
  );
  // The user's confirmation, committed with the payment: if the bot's reply never goes out (it
  // crashed, or Telegram refused it), the worker sends this one when the grace period is over.
  await enqueueOutbox(tx, [
    {
      dedupeKey: paymentNoticeKey(order.publicId),
      chatId: order.chatId,
      method: "notify",
      payload: {
        template: "payment-received",
        params: { orderId: order.publicId, hasCodes: codes ? "yes" : "no" },
        ...(input.locale ? { locale: input.locale } : {}),
      },
      notBefore: new Date(deps.clock.now().getTime() + PAYMENT_NOTICE_GRACE_MS),
    },
  ]);
}

/** "• Longjing green tea × 2: 50 ⭐" lines, for the operators' paid-order notice. */
function itemsText(order: OrderView, locale: "en" | "zh"): string {
  return order.items
    .map(
      (item) =>
        // Chinese takes a full-width colon, as everywhere in the shop's Chinese.
        `• ${item.title[locale]} × ${item.quantity}${locale === "zh" ? "：" : ": "}${formatMoney(item.unitPriceMinor * item.quantity, order.currency)}`,
    )
    .join("\n");
}

/** The items, then a physical order's shipping (option, address, phone masked). */
function withShipping(deps: CoreDeps, view: OrderView, locale: "en" | "zh"): string {
  const items = itemsText(view, locale);
  if (!view.shipping) return items;
  const shipping = shippingText(view.shipping, view.currency, deps.config.shippingOptions, locale);
  return `${items}\n${shipping}`;
}

/** "Ann Lee (@ann_lee) · ••••0001": the name the customer shows, and never more of the id than that. */
function customerLabel(
  userId: bigint,
  customer: { name: string; username?: string | undefined } | undefined,
): string {
  const masked = `••••${String(userId).slice(-4)}`;
  if (!customer) return masked;
  const name = customer.username ? `${customer.name} (@${customer.username})` : customer.name;
  return `${name} · ${masked}`;
}
