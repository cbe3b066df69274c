import { runTransaction } from "@orderbot/db";
import { z } from "zod";
import type { CoreDeps } from "../deps.ts";
import { invalid, type Invalid } from "../results.ts";
import { parseWith, telegramId } from "../validation.ts";
import { readCart, type CartView } from "./queries.ts";

export type SetCartLineResult =
  | { status: "ok"; cart: CartView; changed: boolean }
  /** The cart already has the most lines one order may have. */
  | { status: "too-many-lines"; max: number; cart: CartView }
  /** More units of one product than one order line may hold. */
  | { status: "too-many-units"; max: number }
  /** No such product, or it is no longer on sale. */
  | { status: "not-found" }
  | Invalid;

/**
 * Sets one line of a customer's cart to `quantity` units (0 removes it). Absolute, not "+1": a
 * double tap or a re-delivered update sets the same quantity twice. One short transaction that
 * first locks the customer's cart row (INSERT … ON CONFLICT DO UPDATE), so two edits of one cart
 * never race past the line limit; it touches no product row, so it never waits on a checkout.
 */
export function createSetQuantity(deps: CoreDeps) {
  const schema = z.object({
    userId: telegramId,
    productId: z.number().int().min(1).max(2_147_483_647),
    quantity: z.number().int().min(0),
  });
  const { maxLines, maxUnitsPerLine } = deps.config;

  return async function setQuantity(raw: {
    userId: bigint | number | string;
    productId: number;
    quantity: number;
  }): Promise<SetCartLineResult> {
    const parsed = parseWith(schema, raw);
    if (!parsed.ok) return invalid(parsed.problems);
    const { userId, productId, quantity } = parsed.value;
    if (quantity > maxUnitsPerLine) return { status: "too-many-units", max: maxUnitsPerLine };

    const outcome = await runTransaction(
      deps.db,
      async (tx) => {
        await tx.$executeRaw`
          INSERT INTO carts (user_id, updated_at) VALUES (${userId}, now() AT TIME ZONE 'UTC')
          ON CONFLICT (user_id) DO UPDATE SET user_id = carts.user_id`;
        const current = await tx.cartItem.findUnique({
          where: { userId_productId: { userId, productId } },
        });
        if ((current?.quantity ?? 0) === quantity) return "unchanged" as const;
        if (quantity === 0) {
          await tx.cartItem.delete({ where: { userId_productId: { userId, productId } } });
        } else {
          const product = await tx.product.findUnique({ where: { id: productId } });
          if (!product?.active) return "not-found" as const;
          if (!current) {
            const lines = await tx.cartItem.count({ where: { userId } });
            if (lines >= maxLines) return "too-many-lines" as const;
            await tx.cartItem.create({ data: { userId, productId, quantity } });
          } else {
            await tx.cartItem.update({
              where: { userId_productId: { userId, productId } },
              data: { quantity },
            });
          }
        }
        await tx.cart.update({ where: { userId }, data: { revision: { increment: 1 } } });
        return "changed" as const;
      },
      { timeoutMs: deps.config.transactionTimeoutMs, maxWaitMs: deps.config.transactionMaxWaitMs },
    );
    if (outcome === "not-found") return { status: "not-found" };
    const cart = await readCart(deps.db, userId, deps.clock.now());
    if (outcome === "too-many-lines") return { status: "too-many-lines", max: maxLines, cart };
    return { status: "ok", cart, changed: outcome === "changed" };
  };
}
