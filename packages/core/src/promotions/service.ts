import type { CoreDeps } from "../deps.ts";
import type { CartView } from "../cart/queries.ts";
import { createApplyPromo, createRemovePromo, type ApplyPromoResult } from "./cart-promo.ts";
import { createPromoCodeAdmin, type PromoCodeAdmin } from "./codes.ts";

/**
 * Promo codes with limited uses (docs/architecture.md, Promo codes): operators create, list and
 * turn off codes; customers apply one to their cart. A use is taken by checkout, in the
 * reservation's transaction, and given back when that reservation expires or is cancelled.
 */
export interface PromotionService extends PromoCodeAdmin {
  /** Applies a code to the customer's cart (bumping its revision), or says why it cannot be used. */
  applyToCart(input: { userId: bigint | number | string; code: string }): Promise<ApplyPromoResult>;
  /** Takes the code off the customer's cart. */
  removeFromCart(userId: bigint | number | string): Promise<CartView>;
}

export function createPromotionService(deps: CoreDeps): PromotionService {
  return {
    ...createPromoCodeAdmin(deps),
    applyToCart: createApplyPromo(deps),
    removeFromCart: createRemovePromo(deps),
  };
}
