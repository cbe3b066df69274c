// @orderbot/core/cart: the customer's cart and its checkout.
export type { CartService } from "./service.ts";
export type { CartLineView, CartPromoView, CartView } from "./queries.ts";
export type { SetCartLineResult } from "./set-quantity.ts";
export type { CheckoutInput, CheckoutResult } from "./checkout.ts";
