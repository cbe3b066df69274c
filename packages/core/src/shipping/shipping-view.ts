// A physical order's shipping as callers see it: the buyer's name, phone, e-mail and address only
// masked. The full details are read by revealPhone (phone-reveal.ts), which records who asked.
import { maskAddress, maskEmail, maskName, maskPhone, readOrderInfo } from "./order-info.ts";

export interface OrderShippingView {
  /** The option chosen (SHIPPING_OPTIONS id) and its price, in the order's currency. */
  optionId: string;
  shippingMinor: number;
  /** "A••• L•••"; null when the invoice did not ask for a name. */
  nameMasked: string | null;
  /** "+49 ••• ••• 67"; null when the invoice did not ask for a phone. */
  phoneMasked: string | null;
  /** "a•••@e•••.com". */
  emailMasked: string | null;
  /** "•••, Berlin, DE": city and country only. */
  addressMasked: string | null;
  /** Any of the four was given: the reveal has something to show. */
  hasContact: boolean;
  countryCode: string | null;
}

export function shippingView(order: {
  shippingOptionId: string | null;
  shippingMinor: number;
  orderInfo: unknown;
}): OrderShippingView | null {
  if (order.shippingOptionId === null) return null;
  const info = readOrderInfo(order.orderInfo);
  return {
    optionId: order.shippingOptionId,
    shippingMinor: order.shippingMinor,
    nameMasked: info?.name ? maskName(info.name) : null,
    phoneMasked: info?.phone_number ? maskPhone(info.phone_number) : null,
    emailMasked: info?.email ? maskEmail(info.email) : null,
    addressMasked: info?.shipping_address ? maskAddress(info.shipping_address) : null,
    hasContact: Boolean(info?.name || info?.phone_number || info?.email || info?.shipping_address),
    countryCode: info?.shipping_address?.country_code.toUpperCase() ?? null,
  };
}
