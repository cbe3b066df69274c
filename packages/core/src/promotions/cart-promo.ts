import { z } from "zod";
import { cutText } from "@orderbot/platform";
import type { CoreDeps } from "../deps.ts";
import { readCart, type CartView } from "../cart/queries.ts";
import { invalid, type Invalid } from "../results.ts";
import { parseWith, telegramId } from "../validation.ts";
import { normaliseCode, priceWithCode, type PromoPrice, type PromoRefusal } from "./terms.ts";

export type ApplyPromoResult =
  /** Applied (or already applied): the cart with its discount. */
  | { status: "ok"; cart: CartView; price: PromoPrice; changed: boolean }
  /** A code is applied to a cart with something in it. */
  | { status: "empty" }
  | PromoRefusal
  | Invalid;

const applySchema = z.object({ userId: telegramId, code: z.string().max(256) });

/**
 * Applies a code to the customer's cart: checked now against the cart (window, uses left, the
 * customer's own uses, the minimum, the currency) so a refusal comes at once with its reason, then
 * stored with the cart. Changing the code bumps the cart's revision, so a Checkout drawn before is
 * refused as "cart changed": the customer never orders at a price they were not shown. The use
 * itself is only taken at checkout, in the reservation's transaction.
 */
export function createApplyPromo(deps: CoreDeps) {
  return async function applyPromo(raw: {
    userId: bigint | number | string;
    code: string;
  }): Promise<ApplyPromoResult> {
    const parsed = parseWith(applySchema, raw);
    if (!parsed.ok) return invalid(parsed.problems);
    const { userId } = parsed.value;
    const typed = cutText(parsed.value.code.trim().toUpperCase(), 32);
    const text = normaliseCode(parsed.value.code);
    const code = text ? await deps.db.promoCode.findUnique({ where: { code: text } }) : null;
    if (!code) return { status: "promo-refused", reason: "unknown", code: text ?? typed };
    const cart = await readCart(deps.db, userId, deps.clock.now());
    if (cart.lines.length === 0 || cart.currency === null) return { status: "empty" };
    const held = await deps.db.promoUse.count({
      where: { codeId: code.id, userId, returnedAt: null },
    });
    const price = priceWithCode(code, {
      subtotalMinor: cart.totalMinor,
      currency: cart.currency,
      now: deps.clock.now(),
      heldByCustomer: held,
    });
    if (price.status !== "ok") return price;
    const changed = await deps.db.$executeRaw`
      UPDATE carts SET promo_code_id = ${code.id}, revision = revision + 1, updated_at = now() AT TIME ZONE 'UTC'
      WHERE user_id = ${userId} AND promo_code_id IS DISTINCT FROM ${code.id}`;
    deps.metrics.operations.inc({ op: "promo_apply", outcome: "ok" });
    return {
      status: "ok",
      cart: await readCart(deps.db, userId, deps.clock.now()),
      price,
      changed: changed === 1,
    };
  };
}

/** Takes the code off the cart (bumping its revision when there was one). */
export function createRemovePromo(deps: CoreDeps) {
  return async function removePromo(raw: bigint | number | string): Promise<CartView> {
    const userId = telegramId.parse(raw);
    await deps.db.$executeRaw`
      UPDATE carts SET promo_code_id = NULL, revision = revision + 1, updated_at = now() AT TIME ZONE 'UTC'
      WHERE user_id = ${userId} AND promo_code_id IS NOT NULL`;
    return readCart(deps.db, userId, deps.clock.now());
  };
}
