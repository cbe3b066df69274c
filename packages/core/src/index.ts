// @orderbot/core: the shop as a whole (createShop, its configuration and settings, money, views,
// results, lock kinds, metrics). Each domain has an entry point of its own, named after its
// folder: @orderbot/core/orders, /payments, /cart, /catalog, /stock, /promotions and the rest.
export { createShop, type Shop, type CreateShopOptions } from "./shop.ts";
export { LOCK_KINDS, type LockKind } from "./lock-kinds.ts";
export { minorUnitDigits, parseMoney, type Money } from "./money.ts";
export {
  FORMATS,
  PROBLEM_RULES,
  problemOf,
  type Format,
  type Problem,
  type ProblemRule,
} from "./problems.ts";
export { FIXED_RULES, type CoreConfig } from "./config.ts";
export {
  defaultShopConfig,
  shopConfigOf,
  shopSettingsSchema,
  shopSettingsShape,
  type ShopSettings,
} from "./shop-settings.ts";
export { buildDeps, systemClock, type Clock, type CoreDeps, type CoreDepsInput } from "./deps.ts";
export { CORE_METRICS, createCoreMetrics, type CoreMetrics } from "./metrics.ts";
export type { Busy, Unavailable, Invalid, NotFound } from "./results.ts";
export type {
  ProductView,
  OrderView,
  OrderItemView,
  OrderPromoView,
  PaymentView,
} from "./views.ts";
