// A physical order's shipping as callers see it: the phone only masked. The full number is read
// by revealPhone (phone-reveal.ts), which records who asked.
import { addressLine, maskPhone, readOrderInfo } from "./order-info.ts";

export interface OrderShippingView {
  /** The option chosen (SHIPPING_OPTIONS id) and its price, in the order's currency. */
  optionId: string;
  shippingMinor: number;
  name: string | null;
  /** "+49 ••• ••• 67"; null when the invoice did not ask for a phone. */
  phoneMasked: string | null;
  email: string | null;
  /** One line: street, post code and city, state, country. */
  address: string | null;
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
    name: info?.name ?? null,
    phoneMasked: info?.phone_number ? maskPhone(info.phone_number) : null,
    email: info?.email ?? null,
    address: info?.shipping_address ? addressLine(info.shipping_address) : null,
    countryCode: info?.shipping_address?.country_code.toUpperCase() ?? null,
  };
}
