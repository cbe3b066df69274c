import { z } from "zod";
import type { CoreDeps } from "../deps.ts";
import type { PlaceOrderInput } from "../orders/place-order-input.ts";
import { findOrderByKey } from "../orders/idempotency-key.ts";
import type { PlaceOrderResult } from "../orders/reserve.ts";
import { invalid } from "../results.ts";
import { parseWith, telegramId } from "../validation.ts";
import { readCart, type CartView } from "./queries.ts";
import { mixedKinds, type MixedKinds } from "../shipping/mixed-cart.ts";

export interface CheckoutInput {
  userId: bigint | number | string;
  chatId: bigint | number | string;
  /** The cart revision the Checkout button was drawn from. */
  revision: number;
  /** Derived from the press (message and button), as for a single product's Order. */
  idempotencyKey: string;
}

/** One answer per reason: a cart that changed under the placement is "changed" too, with the cart. */
export type CheckoutResult =
  | Exclude<PlaceOrderResult, { status: "cart-changed" }>
  | { status: "empty" }
  /** The cart changed since the button was drawn: here it is now, nothing reserved. */
  | { status: "changed"; cart: CartView }
  /** Physical and digital goods together: one kind must be checked out first; nothing reserved. */
  | MixedKinds;

const schema = z.object({
  userId: telegramId,
  chatId: telegramId,
  revision: z.number().int().min(0),
  idempotencyKey: z.string().min(1).max(128),
});

/**
 * Turns the cart into one order of several lines, reserved in one transaction (placeOrder's), which
 * also empties the cart. All or nothing: if any line is short, nothing is reserved, the result names
 * every short line with what is left, and the cart stays as it was. A double tap or a re-delivered
 * update finds the order the first press placed (its idempotency key), even after the cart emptied.
 */
export function createCheckout(
  deps: CoreDeps,
  placeOrder: (input: PlaceOrderInput) => Promise<PlaceOrderResult>,
) {
  return async function checkout(raw: CheckoutInput): Promise<CheckoutResult> {
    const parsed = parseWith(schema, raw);
    if (!parsed.ok) return invalid(parsed.problems);
    const input = parsed.value;
    const replay = await findOrderByKey(deps.db, input);
    if (replay) return { status: "ok", order: replay, replayed: true };

    const cart = await readCart(deps.db, input.userId);
    if (cart.lines.length === 0) return { status: "empty" };
    if (cart.revision !== input.revision) return { status: "changed", cart };
    // A product taken off sale is a short line with nothing left.
    const gone = cart.lines.filter((l) => !l.product.active);
    if (gone.length > 0)
      return {
        status: "out-of-stock",
        short: gone.map((l) => ({ sku: l.product.sku, requested: l.quantity, available: 0 })),
      };
    const mixed = await mixedKinds(
      deps.db,
      cart.lines.map((l) => l.product.sku),
    );
    if (mixed) return mixed;
    const result = await placeOrder({
      userId: input.userId,
      chatId: input.chatId,
      items: cart.lines.map((l) => ({ sku: l.product.sku, quantity: l.quantity })),
      idempotencyKey: input.idempotencyKey,
      cartRevision: cart.revision,
      ...(cart.promo ? { promoCodeId: cart.promo.codeId } : {}),
    });
    if (result.status === "cart-changed")
      return { status: "changed", cart: await readCart(deps.db, input.userId) };
    return result;
  };
}
