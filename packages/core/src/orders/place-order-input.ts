import { z } from "zod";
import type { CoreConfig } from "../config.ts";
import { issueParams } from "../problems.ts";
import { skuSchema, telegramId } from "../validation.ts";

export interface PlaceOrderInput {
  userId: bigint | number | string;
  /** The private chat the order was placed from: notifications about it go there. */
  chatId: bigint | number | string;
  items: { sku: string; quantity: number }[];
  /** Derived from the user's intent (the button's message and choice, or the update id). */
  idempotencyKey: string;
  /**
   * Placed from the user's cart at this revision: the order's transaction empties the cart, and
   * rolls back ("cart-changed") if the cart is no longer at this revision.
   */
  cartRevision?: number;
  /**
   * The promo code applied to the cart (its id): the order takes one of its uses in its own
   * transaction and is charged the discounted total (docs/architecture.md, Promo codes).
   */
  promoCodeId?: number;
}

/** Lines: 1..maxLines, each 1..maxUnitsPerLine units, no sku twice. */
export function placeOrderSchema(config: Pick<CoreConfig, "maxLines" | "maxUnitsPerLine">) {
  return z.object({
    userId: telegramId,
    chatId: telegramId,
    items: z
      .array(
        z.object({ sku: skuSchema, quantity: z.number().int().min(1).max(config.maxUnitsPerLine) }),
      )
      .min(1)
      .max(config.maxLines)
      .superRefine((items, ctx) => {
        const seen = new Set<string>();
        items.forEach((item, index) => {
          if (seen.has(item.sku))
            ctx.addIssue({
              code: "custom",
              path: [index, "sku"],
              ...issueParams("duplicate", item.sku),
            });
          seen.add(item.sku);
        });
      }),
    idempotencyKey: z.string().min(1).max(128),
    cartRevision: z.number().int().min(0).optional(),
    promoCodeId: z.number().int().min(1).max(2_147_483_647).optional(),
  });
}

export type ValidPlaceOrder = z.output<ReturnType<typeof placeOrderSchema>>;
