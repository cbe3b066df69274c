export { createShop, type Shop, type CreateShopOptions } from "./shop.ts";
export { LOCK_KINDS, type LockKind } from "./lock-kinds.ts";
export { formatMoney, parseMoney } from "./money.ts";
export {
  MAX_SUPPORT_TEXT,
  supportRequestKey,
  type AnswerSupportRequestInput,
  type AnswerSupportRequestResult,
  type OpenSupportRequestInput,
  type OpenSupportRequestResult,
  type SupportRequests,
  type SupportTopic,
} from "./customers/support-requests.ts";
export { MAX_OPEN_SUPPORT_REQUESTS } from "./customers/open-requests.ts";
export {
  CARD_WAY_BACK,
  createOrderMessages,
  DELETABLE_FOR_MS,
  INVOICE_CLAIM_MS,
  type InvoiceClaim,
  type OrderMessageIds,
  type OrderMessages,
} from "./customers/order-messages.ts";
export {
  checkInvoiceAmount,
  INVOICE_LIMITS,
  type InvoiceAmountCheck,
  type InvoiceAmountRefusal,
  type InvoiceLimit,
} from "./payments/invoice-limits.ts";
export {
  coreConfigSchema,
  resolveCoreConfig,
  type CoreConfig,
  type CoreConfigInput,
} from "./config.ts";
export { shopConfigOf, shopSettingsShape, type ShopSettings } from "./shop-settings.ts";
export { buildDeps, systemClock, type Clock, type CoreDeps, type CoreDepsInput } from "./deps.ts";
export { CORE_METRICS, createCoreMetrics, type CoreMetrics } from "./metrics.ts";
export type { Busy, Unavailable, Invalid, NotFound, NotYours } from "./results.ts";
export type {
  ProductView,
  OrderView,
  OrderItemView,
  OrderPromoView,
  PaymentView,
} from "./views.ts";
/** What the database operations below take: the client, or a transaction client. */
export type { Sql } from "./database/sql.ts";

export { createCatalogService, type CatalogService, type CatalogPage } from "./catalog/service.ts";
export type { CategoryView } from "./catalog/category-queries.ts";
export {
  categorySlugSchema,
  type AssignProductResult,
  type CategoryAdmin,
  type CategoryChangeResult,
  type CreateCategoryInput,
  type RemoveCategoryResult,
  type RenameCategoryInput,
} from "./catalog/categories.ts";
export { SEARCH_QUERY_MAX_BYTES, searchWords, type SearchPage } from "./catalog/search.ts";
export type { CartService } from "./cart/service.ts";
export type { CartLineView, CartPromoView, CartView } from "./cart/queries.ts";
export type { PromotionService } from "./promotions/service.ts";
export type {
  CreatePromoCodeInput,
  CreatePromoCodeResult,
  DisablePromoCodeResult,
  PromoCodeView,
} from "./promotions/codes.ts";
export type { ApplyPromoResult } from "./promotions/cart-promo.ts";
export {
  discountFor,
  normaliseCode,
  priceWithCode,
  PROMO_CODE_PATTERN,
  type PromoPrice,
  type PromoRefusal,
  type PromoRefusalReason,
  type PromoTerms,
} from "./promotions/terms.ts";
export type { SetCartLineResult } from "./cart/set-quantity.ts";
export type { CheckoutInput, CheckoutResult } from "./cart/checkout.ts";
export {
  PRODUCT_PHOTO_URL_MAX,
  parseProductPhoto,
  type ProductPhotos,
  type SetProductPhotoResult,
} from "./catalog/photos.ts";
export { createOrderService, type OrderService } from "./orders/service.ts";
export type { PlaceOrderInput, ValidPlaceOrder } from "./orders/place-order-input.ts";
export { reserveOrder, type PlaceOrderResult } from "./orders/reserve.ts";
export type { ShortLine } from "./orders/shortfall.ts";
export type { CancelOrderResult } from "./orders/cancel-order.ts";
export type { ExpireDueResult, ExpireDueOptions } from "./orders/expire-due.ts";
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
} from "./orders/transitions.ts";
// Operators moving paid orders on, the order timeline and the customer's status notices.
export { createFulfilmentService, type FulfilmentService } from "./fulfilment/service.ts";
export {
  FULFILMENT_STEPS,
  type AdvanceOrderInput,
  type AdvanceOrderResult,
  type FulfilmentStep,
} from "./fulfilment/advance-order.ts";
export { TIMELINE_NOTE_MAX, type TimelineEntryView } from "./fulfilment/timeline.ts";
export { statusNoticeKey } from "./fulfilment/status-notice.ts";
export {
  FULFILMENT_CALLBACK_PREFIX,
  fulfilmentButtons,
  type FulfilmentButton,
} from "./fulfilment/buttons.ts";
export { PUBLIC_ID_ALPHABET, PUBLIC_ID_PATTERN } from "./orders/public-id.ts";

export { createPaymentService, type PaymentService } from "./payments/service.ts";
export type {
  CheckPayableInput,
  CheckPayableResult,
  PayRefusal,
} from "./payments/check-payable.ts";
export type { ConfirmPaymentInput, ConfirmPaymentResult } from "./payments/confirm-payment.ts";
export { PAYMENT_NOTICE_GRACE_MS, paymentNoticeKey } from "./payments/paid-notices.ts";
export type { RefundOrderOptions, RefundOrderResult } from "./payments/refund-order.ts";
export { AUTO_REFUND_CURRENCY, type RefundReason } from "./payments/refund-queue.ts";
// Refunds that need a person (/refunds) and refunds Telegram reports (refunded_payment).
export type {
  LedgerFindingsSection,
  MoneyExceptions,
  MoneySection,
} from "./payments/money-exceptions.ts";
export type { OwedRefund, OwedRefundState } from "./payments/owed-refunds.ts";
export {
  REFUND_NOTE_MAX,
  type MarkRefundedResult,
  type NotOwed,
  type PaymentRef,
  type RetryRefundResult,
} from "./payments/refund-actions.ts";
export {
  telegramRefundAlertKey,
  type TelegramRefundInput,
  type TelegramRefundResult,
} from "./payments/telegram-refund.ts";
// Reconciliation with Telegram's Stars ledger (getStarTransactions).
export {
  createStarReconciliation,
  type ReconcileOptions,
  type ReconcileResult,
  type StarReconciliation,
} from "./payments/reconciliation/service.ts";
export {
  FINDING_KINDS,
  FINDING_NOTE_MAX,
  openFindingCount,
  type FindingKind,
  type LedgerFinding,
  type ResolveFindingResult,
} from "./payments/reconciliation/findings.ts";
export {
  LEDGER_PAGE_SIZE,
  type FetchLedgerPage,
  type LedgerTransaction,
} from "./payments/reconciliation/ledger.ts";
export { findingAlertKey } from "./payments/reconciliation/alerts.ts";
// Refunds still pending, for the worker's refunds job and backlog gauges.
export {
  STARS,
  starRefundKey,
  refundAlertKey,
  completeStarRefund,
  starRefundsWithoutCall,
  manualRefundsNotAlerted,
  oldestRefundPendingAgeSeconds,
  type CompleteRefundOutcome,
  type PendingRefund,
} from "./payments/pending-refunds.ts";

export { createStockService, type StockService } from "./stock/service.ts";
export type { AdjustStockResult } from "./stock/adjust-stock.ts";
export type { SetPriceInput, SetPriceResult } from "./stock/set-price.ts";
export type { ImportStockBatchInput, ImportStockBatchResult } from "./stock/import-batch.ts";
export { createDeliveryService, type DeliveryService } from "./delivery/service.ts";
export type { LoadCodesInput, LoadCodesResult } from "./delivery/load-codes.ts";
export type { PoolSummary } from "./delivery/queries.ts";
export {
  codeOfLine,
  MAX_CODE_LENGTH,
  MAX_CODES_PER_BATCH,
  type CodeLines,
} from "./delivery/code-lines.ts";
export { DELIVERY_TEXT_LIMIT, deliveryKey } from "./delivery/queue-delivery.ts";
export { createShippingService, type ShippingService } from "./shipping/service.ts";
export {
  optionsFor,
  shippingOptionsSchema,
  shipsTo,
  type ShippingOption,
} from "./shipping/options.ts";
export {
  addressLine,
  maskAddress,
  maskEmail,
  maskName,
  maskPhone,
  orderInfoSchema,
  type OrderInfo,
  type ShippingAddress,
} from "./shipping/order-info.ts";
export {
  shippingCharge,
  type ShippingCharge,
  type ShippingRefusal,
} from "./shipping/shipping-charge.ts";
export type { OrderShippingView } from "./shipping/shipping-view.ts";
export type { BuyerContact, RevealPhoneInput, RevealPhoneResult } from "./shipping/phone-reveal.ts";
export type { SetProductKindInput, SetProductKindResult } from "./shipping/product-kind.ts";
export { SHOW_PHONE_CALLBACK_PREFIX } from "./shipping/operator-text.ts";
export { createLowStockAlerts, type LowStockAlerts } from "./stock/low-stock.ts";

export {
  createGroupService,
  type GroupService,
  type GroupView,
  type UpdateSettingsResult,
  type RefreshAdminsResult,
  type FetchAdmins,
} from "./groups/service.ts";
export { humanAdminIds, type ChatAdministrator } from "./groups/admins.ts";
export { saveGroupAdmins, listOperatorGroups, type OperatorGroupRef } from "./groups/queries.ts";
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
// The relay's side of the outbox: claiming due messages and settling them. The worker's jobs call
// these; they never touch Prisma themselves.
export {
  claimDueOutbox,
  markOutboxSent,
  rescheduleOutbox,
  markOutboxDead,
  type ClaimedMessage,
  type ClaimOptions,
  type ClaimRef,
  type RescheduleOptions,
  type DeadOptions,
} from "./outbox/claims.ts";
export { outboxStats, outboxHas, recentSends, type OutboxStats } from "./outbox/backlog.ts";
// Retention: sent messages are deleted after a while, dead letters kept (see retention.ts).
export { pruneSentOutbox } from "./outbox/retention.ts";
export {
  confirmGroupReply,
  queueGroupReply,
  recentGroupReplies,
  reserveGroupReply,
  type GroupReplyDecision,
  type GroupReplyInput,
} from "./outbox/group-replies.ts";

// The worker posts the daily report once a day; an operator's /report shows today's on demand.
export { buildDailyReport, dayIn, type DailyReport } from "./reports/daily-report.ts";
export { createReports, type Reports } from "./reports/service.ts";

// Per-user language choices, cached in Redis so that the bot's handlers never touch Redis.
export {
  createLanguagePreferences,
  type LanguagePreferences,
  type LanguagePreferencesDeps,
} from "./customers/language-preferences.ts";
