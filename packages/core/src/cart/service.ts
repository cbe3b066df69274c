import type { CoreDeps } from "../deps.ts";
import { telegramId } from "../validation.ts";
import { createCheckout } from "./checkout.ts";
import { readCart, type CartView } from "./queries.ts";
import { createSetQuantity } from "./set-quantity.ts";

export type CartService = ReturnType<typeof createCartService>;

type UserId = bigint | number | string;

/**
 * A customer's cart, kept in PostgreSQL (docs/architecture.md, The cart). It holds no stock:
 * stock is reserved only by checkout, which turns the whole cart into one order.
 */
export function createCartService(
  deps: CoreDeps,
  placeOrder: Parameters<typeof createCheckout>[1],
) {
  return {
    view: (userId: UserId): Promise<CartView> =>
      readCart(deps.db, telegramId.parse(userId), deps.clock.now()),
    /** The units the cart holds (`view(...).units`, what a Cart button shows), in one small query. */
    async units(userId: UserId): Promise<number> {
      const [row] = await deps.db.$queryRaw<{ units: number }[]>`
        SELECT COALESCE(sum(quantity), 0)::int AS units
          FROM cart_items WHERE user_id = ${telegramId.parse(userId)}`;
      return row?.units ?? 0;
    },
    /** Sets a product's line to `quantity` units; 0 removes it. */
    setQuantity: createSetQuantity(deps),
    /** Removes every line. */
    async clear(raw: UserId): Promise<CartView> {
      const userId = telegramId.parse(raw);
      await deps.db.$executeRaw`
        WITH cart AS (
          UPDATE carts SET revision = revision + 1, updated_at = now() AT TIME ZONE 'UTC'
          WHERE user_id = ${userId} AND EXISTS (SELECT 1 FROM cart_items WHERE user_id = ${userId})
          RETURNING user_id
        )
        DELETE FROM cart_items WHERE user_id IN (SELECT user_id FROM cart)`;
      return readCart(deps.db, userId, deps.clock.now());
    },
    checkout: createCheckout(deps, placeOrder),
  };
}
