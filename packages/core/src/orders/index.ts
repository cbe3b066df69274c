// @orderbot/core/orders: placing, cancelling and expiring orders.
export { createOrderService, type OrderService } from "./service.ts";
export type { PlaceOrderInput, ValidPlaceOrder } from "./place-order-input.ts";
export { reserveOrder, type PlaceOrderResult } from "./reserve.ts";
export type { ShortLine } from "./shortfall.ts";
export type { CancelOrderResult } from "./cancel-order.ts";
export type { ExpireDueResult, ExpireDueOptions } from "./expire-due.ts";
export {
  FULFILMENT_STATUSES,
  LEGAL_TRANSITIONS,
  OPEN_STATUSES,
  ORDER_STATUSES,
  SHIPPED_STATUSES,
  UNSHIPPED_PAID_STATUSES,
  isLegalTransition,
  type FulfilmentStatus,
  type OrderStatus,
} from "./transitions.ts";
export { PUBLIC_ID_ALPHABET, PUBLIC_ID_PATTERN } from "./public-id.ts";
