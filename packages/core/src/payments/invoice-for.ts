// Whether an order may be paid now, and what its invoice asks: the same answer for every way in
// (the chat's sendInvoice, a Mini App's invoice link). The terms are data; the words are the
// renderer's, and the provider's token stays with the way in that sends the invoice.
import type { OrderItemView, OrderPromoView, OrderView } from "../views.ts";
import { closedToPayment } from "./pay-window.ts";

/** The shop's invoicing: digital goods for Stars; physical goods through the provider. */
export interface InvoiceSettings {
  /** The provider's currency (PROVIDER_CURRENCY); null: physical goods are shown, not sold. */
  provider: { currency: string } | null;
  /** What a physical order's invoice asks besides the shipping address (always asked). */
  asks: { name: boolean; phone: boolean; email: boolean };
  /** How long a payment in flight holds an order past its reservation (PAYMENT_GRACE_MS). */
  paymentGraceMs: number;
}

/** What a physical order's payment form asks for; a Stars invoice asks nothing. */
export interface InvoiceAsks {
  name: boolean;
  phone: boolean;
  email: boolean;
  /** With a choice of shipping options for the address given (Telegram's is_flexible). */
  shippingAddress: true;
}

export interface InvoiceTerms {
  orderId: string;
  currency: string;
  /** The one price: the order's total, after any discount. */
  amountMinor: number;
  /** `stars`: Telegram Stars, no provider. `provider`: the provider physical goods are paid through. */
  payVia: "stars" | "provider";
  title: { orderId: string };
  /** The discount first (a Stars invoice takes one price, so it is said in words), then the items. */
  description: { promo: OrderPromoView | null; items: OrderItemView[]; currency: string };
  asks: InvoiceAsks | null;
}

/** Why no invoice. A missing order and another customer's are alike: `not-found`. */
export type InvoiceRefusal =
  | { status: "not-found" }
  | { status: "refused"; reason: "cancelled" | "expired" | "already-paid"; order: OrderView }
  /** physical-unavailable: no provider; wrong-currency: the order's is not its invoice's. */
  | { status: "not-sold"; reason: "physical-unavailable" | "wrong-currency"; order: OrderView };

export type InvoiceForResult =
  { status: "ok"; order: OrderView; terms: InvoiceTerms } | InvoiceRefusal;

/**
 * The invoice for `order` as `customer` may have it now. `order` is what an owner-scoped read
 * found (null: none); it is checked against the customer again, so a caller that read it
 * otherwise still refuses another's order as a missing one.
 */
export function invoiceFor(
  order: OrderView | null,
  customer: { userId: bigint | number | string },
  shop: { settings: InvoiceSettings; now: Date },
): InvoiceForResult {
  if (!order || order.userId !== BigInt(customer.userId)) return { status: "not-found" };
  const closed = closedToPayment(order, shop.now, shop.settings.paymentGraceMs);
  if (closed) return { status: "refused", reason: closed, order };
  const via = payVia(order, shop.settings);
  if (via.status !== "ok") return { status: "not-sold", reason: via.reason, order };
  return { status: "ok", order, terms: termsOf(order, via.payVia, shop.settings) };
}

/** Whether an order's goods are shipped (then it is paid through the provider, with shipping). */
function isPhysical(order: Pick<OrderView, "items">): boolean {
  return order.items.some((item) => item.kind === "PHYSICAL");
}

function payVia(
  order: OrderView,
  settings: InvoiceSettings,
):
  | { status: "ok"; payVia: InvoiceTerms["payVia"] }
  | { status: "no"; reason: "physical-unavailable" | "wrong-currency" } {
  if (!isPhysical(order))
    return order.currency === "XTR"
      ? { status: "ok", payVia: "stars" }
      : { status: "no", reason: "wrong-currency" };
  if (!settings.provider) return { status: "no", reason: "physical-unavailable" };
  if (order.currency !== settings.provider.currency)
    return { status: "no", reason: "wrong-currency" };
  return { status: "ok", payVia: "provider" };
}

function termsOf(
  order: OrderView,
  via: InvoiceTerms["payVia"],
  settings: InvoiceSettings,
): InvoiceTerms {
  return {
    orderId: order.id,
    currency: order.currency,
    amountMinor: order.totalMinor,
    payVia: via,
    title: { orderId: order.id },
    description: { promo: order.promo ?? null, items: order.items, currency: order.currency },
    asks: via === "stars" ? null : { ...settings.asks, shippingAddress: true },
  };
}
