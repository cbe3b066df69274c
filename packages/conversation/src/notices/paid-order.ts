// What the operators' paid-order alert lists under its heading, read from the order when the alert
// is sent: the items, a physical order's shipping (the buyer's details masked: the alert's "Show
// contact" reveals them to who presses), and the masked tails of the codes it was given.
import type { OrderView } from "@orderbot/core";
import { formatMoney } from "../money/format-money.ts";
import type { OrderShippingView, ShippingOption } from "@orderbot/core/shipping";
import type { Locale } from "../languages.ts";
import { format } from "./fluent.ts";

/**
 * Items and code tails listed at most; the rest are counted. An order may hold 50 lines of 99
 * units: listed whole, its alert would pass Telegram's 4,096 characters and never arrive.
 */
export const MAX_ITEMS_LISTED = 20;
export const MAX_CODES_LISTED = 20;

export function paidOrderLines(
  order: OrderView,
  options: readonly ShippingOption[],
  codes: readonly string[],
  locale: Locale,
): string {
  const lines = order.items.slice(0, MAX_ITEMS_LISTED).map((item) =>
    format(locale, "operator-paid-item", {
      title: item.title[locale],
      quantity: String(item.quantity),
      amount: formatMoney(item.unitPriceMinor * item.quantity, order.currency),
    }),
  );
  const moreItems = order.items.length - MAX_ITEMS_LISTED;
  if (moreItems > 0) lines.push(format(locale, "operator-paid-more", { count: String(moreItems) }));
  const shipping = order.shipping;
  if (shipping) lines.push(...shippingLines(order.currency, shipping, options, locale));
  if (codes.length > 0) {
    const listed = codes.slice(0, MAX_CODES_LISTED).join(", ");
    const moreCodes = codes.length - MAX_CODES_LISTED;
    lines.push(
      format(locale, "operator-paid-codes", {
        count: String(codes.length),
        codes: moreCodes > 0 ? `${listed} … +${moreCodes}` : listed,
      }),
    );
  }
  return lines.join("\n");
}

function shippingLines(
  currency: string,
  shipping: OrderShippingView,
  options: readonly ShippingOption[],
  locale: Locale,
): string[] {
  const lines: string[] = [];
  const option = options.find((o) => o.id === shipping.optionId)?.title ?? shipping.optionId;
  const amount = formatMoney(shipping.shippingMinor, currency);
  lines.push(format(locale, "operator-paid-shipping", { option, amount }));
  const to = [shipping.nameMasked, shipping.addressMasked].filter(Boolean).join(", ");
  if (to) lines.push(format(locale, "operator-paid-to", { to }));
  if (shipping.phoneMasked)
    lines.push(format(locale, "operator-paid-phone", { phone: shipping.phoneMasked }));
  if (shipping.emailMasked)
    lines.push(format(locale, "operator-paid-email", { email: shipping.emailMasked }));
  return lines;
}
