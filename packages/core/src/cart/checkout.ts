import { z } from "zod";
import type { CoreDeps } from "../deps.ts";
import type { PlaceOrderInput } from "../orders/place-order-input.ts";
import type { KnownProduct } from "../orders/price-order.ts";
import { findOrderByKey } from "../orders/idempotency-key.ts";
import type { PlaceOrderResult } from "../orders/reserve.ts";
import type { ShortLine } from "../orders/shortfall.ts";
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

/** A refusal answered from the cart: it comes with the cart as it is now, to show again. */
type WithCart<R> = R & { cart: CartView };

type CartRefusal = Extract<
  PlaceOrderResult,
  { status: "out-of-stock" | "promo-refused" | "cart-changed" }
>;

/**
 * One answer per reason, under placeOrder's names. A refusal the customer answers from the cart
 * carries the cart: the cart read for the checkout, with the short lines' stock as the placement
 * found it; after "cart-changed" (since the button was drawn, or under the placement), the cart
 * as it is now.
 */
export type CheckoutResult =
  | Exclude<PlaceOrderResult, CartRefusal>
  | WithCart<CartRefusal>
  | WithCart<{ status: "empty" }>
  /** Physical and digital goods together: one kind must be checked out first; nothing reserved. */
  | WithCart<MixedKinds>;

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
  placeOrder: (
    input: PlaceOrderInput,
    known?: readonly KnownProduct[],
  ) => Promise<PlaceOrderResult>,
) {
  return async function checkout(raw: CheckoutInput): Promise<CheckoutResult> {
    const parsed = parseWith(schema, raw);
    if (!parsed.ok) return invalid(parsed.problems);
    const input = parsed.value;
    const replay = await findOrderByKey(deps.db, input);
    if (replay) return { status: "ok", order: replay, replayed: true };

    const cart = await readCart(deps.db, input.userId, deps.clock.now());
    if (cart.lines.length === 0) return { status: "empty", cart };
    if (cart.revision !== input.revision) return { status: "cart-changed", cart };
    // A product taken off sale is a short line with nothing left.
    const gone = cart.lines.filter((l) => !l.product.active);
    if (gone.length > 0)
      return {
        status: "out-of-stock",
        short: gone.map((l) => ({ sku: l.product.sku, requested: l.quantity, available: 0 })),
        cart,
      };
    const mixed = mixedKinds(cart.lines);
    if (mixed) return { ...mixed, cart };
    const result = await placeOrder(
      {
        userId: input.userId,
        chatId: input.chatId,
        items: cart.lines.map((l) => ({ sku: l.product.sku, quantity: l.quantity })),
        idempotencyKey: input.idempotencyKey,
        cartRevision: cart.revision,
        ...(cart.promo ? { promoCodeId: cart.promo.codeId } : {}),
      },
      cart.lines.map(knownProduct),
    );
    if (result.status === "cart-changed")
      return { ...result, cart: await readCart(deps.db, input.userId, deps.clock.now()) };
    if (result.status === "out-of-stock")
      return { ...result, cart: withStockFound(cart, result.short) };
    if (result.status === "promo-refused") return { ...result, cart };
    return result;
  };
}

/** The cart with each short line's stock as the placement found it. */
function withStockFound(cart: CartView, short: readonly ShortLine[]): CartView {
  const found = new Map(short.map((line) => [line.sku, line.available]));
  return {
    ...cart,
    lines: cart.lines.map((line) => {
      const available = found.get(line.product.sku);
      return available === undefined
        ? line
        : { ...line, product: { ...line.product, stock: available } };
    }),
  };
}

/** A cart line's product as placeOrder prices it: the Checkout read it already. */
function knownProduct({ product, kind }: CartView["lines"][number]): KnownProduct {
  return {
    id: product.id,
    sku: product.sku,
    titleEn: product.title.en,
    titleZh: product.title.zh,
    kind,
    priceMinor: product.priceMinor,
    currency: product.currency,
    stock: product.stock,
    active: product.active,
  };
}
