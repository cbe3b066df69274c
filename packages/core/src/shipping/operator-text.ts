// A physical order's shipping in the operators' paid-order alert, under its items: the option and
// the buyer's name, address, phone and e-mail masked (the alert's "Show contact" button reveals
// them to the operator who presses it).
import { formatMoney } from "../money.ts";
import type { ShippingOption } from "./options.ts";
import type { OrderShippingView } from "./shipping-view.ts";

/** The "Show phone" button's callback data prefix: `ph:<order public id>` (the bot's codec matches). */
export const SHOW_PHONE_CALLBACK_PREFIX = "ph";

export function showPhoneButton(orderId: string): { label: string; data: string } {
  return { label: "btn-show-phone", data: `${SHOW_PHONE_CALLBACK_PREFIX}:${orderId}` };
}

const WORDS = {
  en: { shipping: "Shipping", to: "Deliver to", phone: "Phone", email: "E-mail", sep: ": " },
  zh: { shipping: "配送", to: "收货", phone: "电话", email: "邮箱", sep: "：" },
} as const;

/** The shipping lines of a paid physical order, in English or Chinese. */
export function shippingText(
  shipping: OrderShippingView,
  currency: string,
  options: readonly ShippingOption[],
  locale: "en" | "zh",
): string {
  const w = WORDS[locale];
  const title = options.find((o) => o.id === shipping.optionId)?.title ?? shipping.optionId;
  const lines = [
    `${w.shipping}${w.sep}${title} (${formatMoney(shipping.shippingMinor, currency)})`,
  ];
  const to = [shipping.nameMasked, shipping.addressMasked].filter(Boolean).join(", ");
  if (to) lines.push(`${w.to}${w.sep}${to}`);
  if (shipping.phoneMasked) lines.push(`${w.phone}${w.sep}${shipping.phoneMasked}`);
  if (shipping.emailMasked) lines.push(`${w.email}${w.sep}${shipping.emailMasked}`);
  return lines.join("\n");
}
