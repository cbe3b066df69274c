import type { OrderPromoView, OrderView } from "@orderbot/core";
import { formatMoney } from "@orderbot/conversation";
import type { CartView } from "@orderbot/core/cart";
import type { InvoiceTerms } from "@orderbot/core/payments";
import type { PromoRefusal } from "@orderbot/core/promotions";
import { cutText } from "@orderbot/platform";
import type { Translate } from "./translate.ts";

/** Telegram's limits on an invoice's texts, in characters. */
export const MAX_INVOICE_TITLE = 32;
export const MAX_INVOICE_DESCRIPTION = 255;

/** "−10%" or "−5.00 USD": what a code takes off, as its terms say. */
export function promoTerms(
  t: Translate,
  promo: Pick<OrderPromoView, "kind" | "value">,
  currency: string,
): string {
  return promo.kind === "PERCENT"
    ? t("promo-terms-percent", { value: promo.value })
    : t("promo-terms-fixed", { amount: formatMoney(promo.value, currency) });
}

/** The order's discount line ("Code SALE10 (−10%): −2 ⭐"), or nothing without a code. */
export function orderPromoLines(t: Translate, order: Pick<OrderView, "promo" | "currency">) {
  if (!order.promo) return [];
  return [
    t("promo-line", {
      code: order.promo.code,
      terms: promoTerms(t, order.promo, order.currency),
      amount: formatMoney(order.promo.discountMinor, order.currency),
    }),
  ];
}

/** The invoice's title ("Order A1B2C3"), within Telegram's 32 characters. */
export function invoiceTitle(t: Translate, orderId: string): string {
  return cutText(t("invoice-title", { id: orderId }), MAX_INVOICE_TITLE);
}

/**
 * The invoice's description, the discount first: a Stars invoice takes exactly one price, so the
 * discount cannot be a second LabeledPrice and is said in words; the one price is the discounted
 * total (docs/architecture.md, Promo codes). At most 255 characters, Telegram's limit.
 */
export function invoiceDescription(
  t: Translate,
  description: Pick<InvoiceTerms["description"], "promo" | "currency">,
  items: string,
): string {
  const { promo, currency } = description;
  const discount = promo
    ? t("promo-invoice", {
        code: promo.code,
        terms: promoTerms(t, promo, currency),
        amount: formatMoney(promo.discountMinor, currency),
      })
    : null;
  return cutText(discount ? `${discount}\n${items}` : items, MAX_INVOICE_DESCRIPTION);
}

/** The cart's code lines: its discount and what checkout would charge, or why it would be refused. */
export function cartPromoLines(t: Translate, cart: CartView, currency: string): string[] {
  const promo = cart.promo;
  if (!promo) return [];
  if (promo.problem)
    return [t("promo-cart-problem", { code: promo.code, why: refusalText(t, promo.problem) })];
  return [
    t("promo-line", {
      code: promo.code,
      terms: promoTerms(t, promo, currency),
      amount: formatMoney(promo.discountMinor, currency),
    }),
    t("promo-cart-payable", { total: formatMoney(promo.payableMinor, currency) }),
  ];
}

/** Why a code was refused, in the customer's words; never anything about other customers. */
export function refusalText(t: Translate, refusal: PromoRefusal): string {
  switch (refusal.reason) {
    case "below-minimum":
      return t("promo-refused-below-minimum", {
        min: formatMoney(refusal.minTotalMinor ?? 0, refusal.currency ?? "XTR"),
      });
    default:
      return t(`promo-refused-${refusal.reason}`);
  }
}
