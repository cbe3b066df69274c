import type { CoreDeps } from "../deps.ts";
import { createApplyPromo, createRemovePromo } from "./cart-promo.ts";
import { createPromoCodeAdmin } from "./codes.ts";

export type PromotionService = ReturnType<typeof createPromotionService>;

/**
 * Promo codes with limited uses (docs/architecture.md, Promo codes): operators create, list and
 * turn off codes; customers apply one to their cart. A use is taken by checkout, in the
 * reservation's transaction, and given back when that reservation expires or is cancelled.
 */
export function createPromotionService(deps: CoreDeps) {
  return {
    ...createPromoCodeAdmin(deps),
    /** Applies a code to the customer's cart (bumping its revision), or says why it cannot be used. */
    applyToCart: createApplyPromo(deps),
    /** Takes the code off the customer's cart. */
    removeFromCart: createRemovePromo(deps),
  };
}
