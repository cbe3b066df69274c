// @orderbot/core/promotions: promo codes and their limited uses.
export type { PromotionService } from "./service.ts";
export type {
  CreatePromoCodeInput,
  CreatePromoCodeResult,
  DisablePromoCodeResult,
  PromoCodeView,
} from "./codes.ts";
export type { ApplyPromoResult } from "./cart-promo.ts";
export {
  discountFor,
  normaliseCode,
  priceWithCode,
  PROMO_CODE_PATTERN,
  type PromoPrice,
  type PromoRefusal,
  type PromoRefusalReason,
  type PromoTerms,
} from "./terms.ts";
