// The cart's promo code buttons (features/promo.ts). Kept beside the shop's other codecs' rules:
// a short prefix, fields without ':', 64 bytes at most.
import { countField, defineCallback } from "./codec.ts";

export const promoCallbacks = {
  /** "Promo code" on the cart drawn at `revision`: the bot asks for the code. */
  ask: defineCallback("pa", { revision: countField }),
  /** Take the applied code off the cart drawn at `revision`. */
  remove: defineCallback("pr", { revision: countField }),
} as const;
