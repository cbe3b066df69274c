export { createShop, type Shop, type CreateShopOptions } from "./shop.ts";
export { LOCK_KINDS, type LockKind } from "./lock-kinds.ts";
export { formatMoney, parseMoney } from "./money.ts";
export {
  connectInfrastructure,
  type Infrastructure,
  type InfrastructureConfig,
  type ConnectOptions,
} from "./infrastructure.ts";
export {
  coreConfigSchema,
  resolveCoreConfig,
  type CoreConfig,
  type CoreConfigInput,
} from "./config.ts";
export { buildDeps, systemClock, type Clock, type CoreDeps, type CoreDepsInput } from "./deps.ts";
export { CORE_METRICS, createCoreMetrics, type CoreMetrics } from "./metrics.ts";
export type { Busy, Unavailable, Invalid, NotFound, NotYours } from "./results.ts";
export type { ProductView, OrderView, OrderItemView, PaymentView } from "./views.ts";

export { createCatalogService, type CatalogService, type CatalogPage } from "./catalog.ts";
export { createOrderService, type OrderService } from "./orders/service.ts";
export type { PlaceOrderInput, ValidPlaceOrder } from "./orders/place-order-input.ts";
export { reserveOrder, type PlaceOrderResult, type ShortLine } from "./orders/reserve.ts";
export type { CancelOrderResult } from "./orders/cancel-order.ts";
export type { ExpireDueResult, ExpireDueOptions } from "./orders/expire-due.ts";
export { LEGAL_TRANSITIONS, OPEN_STATUSES, isLegalTransition } from "./orders/transitions.ts";
export { PUBLIC_ID_ALPHABET, PUBLIC_ID_PATTERN } from "./support/public-id.ts";

export { createPaymentService, type PaymentService } from "./payments/service.ts";
export type {
  CheckPayableInput,
  CheckPayableResult,
  PayRefusal,
} from "./payments/check-payable.ts";
export type { ConfirmPaymentInput, ConfirmPaymentResult } from "./payments/confirm-payment.ts";
export { PAYMENT_NOTICE_GRACE_MS, paymentNoticeKey } from "./payments/confirm-payment.ts";
export type { RefundOrderResult } from "./payments/refund-order.ts";
export { AUTO_REFUND_CURRENCY, type RefundReason } from "./payments/refund-queue.ts";

export { createStockService, type StockService } from "./stock/service.ts";
export type { AdjustStockResult } from "./stock/adjust-stock.ts";
export type { SetPriceInput, SetPriceResult } from "./stock/set-price.ts";
export type { ImportStockBatchInput, ImportStockBatchResult } from "./stock/import-batch.ts";

export {
  createGroupService,
  type GroupService,
  type GroupView,
  type UpdateSettingsResult,
  type RefreshAdminsResult,
  type FetchAdmins,
} from "./groups/service.ts";
export { humanAdminIds, type ChatAdministrator } from "./groups/admins.ts";
export {
  groupSettingsSchema,
  type GroupSettings,
  type GroupSettingsPatch,
} from "./groups/settings.ts";

export { createOutboxService, type OutboxService } from "./outbox/service.ts";
export {
  enqueueOutbox,
  enqueueOperatorAlert,
  type OutboxMessageInput,
  type NotificationTemplate,
  type NotifyPayload,
  type RefundStarPaymentPayload,
} from "./outbox/messages.ts";
