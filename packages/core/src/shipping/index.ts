// @orderbot/core/shipping: physical goods: shipping options, addresses and contacts.
export { createShippingService, type ShippingService } from "./service.ts";
export { optionsFor, shippingOptionsSchema, shipsTo, type ShippingOption } from "./options.ts";
export {
  addressLine,
  maskAddress,
  maskEmail,
  maskName,
  maskPhone,
  orderInfoSchema,
  type OrderInfo,
  type ShippingAddress,
} from "./order-info.ts";
export { shippingCharge, type ShippingCharge, type ShippingRefusal } from "./shipping-charge.ts";
export type { OrderShippingView } from "./shipping-view.ts";
export type { BuyerContact, RevealPhoneInput, RevealPhoneResult } from "./phone-reveal.ts";
export type { SetProductKindInput, SetProductKindResult } from "./product-kind.ts";
