import { cutText } from "@orderbot/platform";
import { formatMoney } from "@orderbot/conversation";
import { type CartService, type CartView } from "@orderbot/core/cart";
import type { BotContext } from "../bot/context.ts";
import { cartKeyboard } from "../keyboards/cart.ts";
import { cartPromoLines } from "../format/promo.ts";
import { MAX_MESSAGE_TEXT, showInPlace } from "./support.ts";

/** The cart's text and buttons: each line at today's price, what is short, the total. */
export function cartScreen(ctx: BotContext, cart: CartView, maxUnitsPerLine: number) {
  if (cart.lines.length === 0)
    return {
      text: ctx.t("cart-empty"),
      keyboard: cartKeyboard(ctx.t, cart, ctx.locale, { maxUnitsPerLine, total: "" }),
    };
  const currency = cart.currency ?? cart.lines[0]!.product.currency;
  const lines = cart.lines.map(({ product, quantity }) => {
    const line = ctx.t("cart-line", {
      title: product.title[ctx.locale],
      qty: quantity,
      amount: formatMoney(product.priceMinor * quantity, product.currency),
    });
    if (!product.active) return `${line} ${ctx.t("cart-line-gone")}`;
    if (product.stock < quantity)
      return `${line} ${ctx.t("cart-line-short", { available: product.stock })}`;
    return line;
  });
  const total = formatMoney(cart.totalMinor, currency);
  const promo = cartPromoLines(ctx.t, cart, currency);
  // Checkout names what it would charge: the total after the code's discount.
  const payable = cart.promo && !cart.promo.problem ? cart.promo.payableMinor : cart.totalMinor;
  return {
    text: [
      ctx.t("cart-title"),
      ...lines,
      "",
      ctx.t("cart-total", { total, units: cart.units }),
      ...promo,
      ctx.t("cart-not-reserved"),
    ].join("\n"),
    keyboard: cartKeyboard(ctx.t, cart, ctx.locale, {
      maxUnitsPerLine,
      total: formatMoney(payable, currency),
    }),
  };
}

/** The cart in the pressed message; `notice`: a text too long for the alert, shown above. */
export async function showCart(
  ctx: BotContext,
  deps: { cart: Pick<CartService, "view">; maxUnitsPerLine: number },
  cart?: CartView,
  notice?: string,
): Promise<void> {
  const screen = cartScreen(
    ctx,
    cart ?? (await deps.cart.view(ctx.from!.id)),
    deps.maxUnitsPerLine,
  );
  const text = notice ? cutText(`${notice}\n\n${screen.text}`, MAX_MESSAGE_TEXT) : screen.text;
  await showInPlace(ctx, text, screen.keyboard);
}
