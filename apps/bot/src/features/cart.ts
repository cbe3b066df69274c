import { Composer } from "grammy";
import type { CartService } from "@orderbot/core/cart";
import type { CatalogService } from "@orderbot/core/catalog";
import type { BotContext, PrivateButtonContext, PrivateCommandContext } from "../bot/context.ts";
import { callbacks, type OrderMessages } from "@orderbot/conversation";
import { cartScreen, showCart } from "./cart-screen.ts";
import { checkout } from "./checkout.ts";
import { cardFor } from "./product.ts";
import { showProductCard } from "./product-card.ts";
import { alert } from "./support.ts";

export interface CartFeatureDeps {
  catalog: CatalogService;
  cart: CartService;
  maxUnitsPerLine: number;
  /** Records the message the order now shows in: its card, kept true when the order changes. */
  orderMessages?: Pick<OrderMessages, "setCard">;
}

/**
 * /cart and the cart's buttons: add from a product card, − + ✕ per line, empty, and Checkout,
 * which turns the whole cart into one order (core's cart.checkout: all lines or none).
 */
export function cartFeature(deps: CartFeatureDeps): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  const privateChats = feature.chatType("private");
  privateChats.command("cart", (ctx) => replyWithCart(ctx, deps));
  privateChats.callbackQuery(callbacks.menu.encode({ action: "cart" }), (ctx) =>
    openCart(ctx, deps),
  );
  privateChats.callbackQuery(callbacks.cartAdd.pattern, (ctx) => addToCart(ctx, deps));
  privateChats.callbackQuery(callbacks.cartSet.pattern, (ctx) => setLine(ctx, deps));
  privateChats.callbackQuery(callbacks.cartEmpty.pattern, (ctx) => emptyCart(ctx, deps));
  privateChats.callbackQuery(callbacks.checkout.pattern, (ctx) => checkout(ctx, deps));
  return feature;
}

async function replyWithCart(ctx: PrivateCommandContext, deps: CartFeatureDeps): Promise<void> {
  const screen = cartScreen(ctx, await deps.cart.view(ctx.from.id), deps.maxUnitsPerLine);
  await ctx.reply(screen.text, { reply_markup: screen.keyboard });
}

async function openCart(ctx: PrivateButtonContext, deps: CartFeatureDeps): Promise<void> {
  await ctx.answerCallbackQuery();
  await showCart(ctx, deps);
}

/** Add on a product card: the card stays, showing what the cart now holds. */
async function addToCart(ctx: PrivateButtonContext, deps: CartFeatureDeps) {
  const data = callbacks.cartAdd.decode(ctx.callbackQuery.data);
  if (!data) return ctx.answerCallbackQuery({ text: ctx.t("button-invalid") });
  const result = await deps.cart.setQuantity({
    userId: ctx.from.id,
    productId: data.productId,
    quantity: data.qty,
  });
  switch (result.status) {
    case "ok": {
      const product = result.cart.lines.find((l) => l.product.id === data.productId)!.product;
      await ctx.answerCallbackQuery({
        text: ctx.t("cart-added", {
          title: product.title[ctx.locale],
          qty: data.qty,
          units: result.cart.units,
        }),
      });
      await showProductCard(ctx, product, await cardFor(ctx, deps, product, 1, data));
      return;
    }
    case "too-many-lines":
      return alert(ctx, ctx.t("cart-too-many-lines", { max: result.max }));
    case "too-many-units":
      return alert(ctx, ctx.t("cart-too-many-units", { max: result.max }));
    case "not-found":
      return alert(ctx, ctx.t("product-gone"));
    case "invalid":
      return ctx.answerCallbackQuery({ text: ctx.t("button-invalid") });
  }
}

/** − + ✕ on a cart line. */
async function setLine(ctx: PrivateButtonContext, deps: CartFeatureDeps) {
  const data = callbacks.cartSet.decode(ctx.callbackQuery.data);
  if (!data) return ctx.answerCallbackQuery({ text: ctx.t("button-invalid") });
  const result = await deps.cart.setQuantity({
    userId: ctx.from.id,
    productId: data.productId,
    quantity: data.quantity,
  });
  if (result.status === "too-many-units")
    return alert(ctx, ctx.t("cart-too-many-units", { max: result.max }));
  if (result.status === "not-found") await alert(ctx, ctx.t("product-gone"));
  else await ctx.answerCallbackQuery();
  await showCart(
    ctx,
    deps,
    result.status === "ok" || result.status === "too-many-lines" ? result.cart : undefined,
  );
}

async function emptyCart(ctx: PrivateButtonContext, deps: CartFeatureDeps) {
  if (!callbacks.cartEmpty.decode(ctx.callbackQuery.data))
    return ctx.answerCallbackQuery({ text: ctx.t("button-invalid") });
  const cart = await deps.cart.clear(ctx.from.id);
  await ctx.answerCallbackQuery({ text: ctx.t("cart-emptied") });
  await showCart(ctx, deps, cart);
}
