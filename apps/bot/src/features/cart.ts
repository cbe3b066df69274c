import { Composer } from "grammy";
import { cutText } from "@orderbot/platform";
import {
  formatMoney,
  type CartService,
  type CartView,
  type CatalogService,
  type CheckoutResult,
  type LowStockAlerts,
  type OrderMessages,
} from "@orderbot/core";
import type { BotContext } from "../bot/context.ts";
import { callbacks } from "../callbacks/index.ts";
import { orderCard } from "../format/order-card.ts";
import { cartKeyboard } from "../keyboards/cart.ts";
import { cartPromoLines, refusalText } from "../format/promo.ts";
import { orderIntentKey } from "./order.ts";
import { cardFor } from "./product.ts";
import { tellPlacementRefusal } from "./placement-refusals.ts";
import { showProductCard } from "./product-card.ts";
import { alert, alertOrDefer, MAX_MESSAGE_TEXT, showInPlace } from "./support.ts";

export interface CartFeatureDeps {
  catalog: CatalogService;
  cart: CartService;
  lowStock: LowStockAlerts;
  maxUnitsPerLine: number;
  /** Records the message the order now shows in: its card, kept true when the order changes. */
  orderMessages?: Pick<OrderMessages, "setCard">;
}

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

/**
 * /cart and the cart's buttons: add from a product card, − + ✕ per line, empty, and Checkout,
 * which turns the whole cart into one order (core's cart.checkout: all lines or none).
 */
export function cartFeature(deps: CartFeatureDeps): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  const privateChats = feature.chatType("private");

  /** The cart in the pressed message; `notice`: a text too long for the alert, shown above. */
  const show = async (ctx: BotContext, cart?: CartView, notice?: string) => {
    const screen = cartScreen(
      ctx,
      cart ?? (await deps.cart.view(ctx.from!.id)),
      deps.maxUnitsPerLine,
    );
    const text = notice ? cutText(`${notice}\n\n${screen.text}`, MAX_MESSAGE_TEXT) : screen.text;
    await showInPlace(ctx, text, screen.keyboard);
  };

  privateChats.command("cart", async (ctx) => {
    const screen = cartScreen(ctx, await deps.cart.view(ctx.from.id), deps.maxUnitsPerLine);
    await ctx.reply(screen.text, { reply_markup: screen.keyboard });
  });

  privateChats.callbackQuery(callbacks.menu.encode({ action: "cart" }), async (ctx) => {
    await ctx.answerCallbackQuery();
    await show(ctx);
  });

  privateChats.callbackQuery(callbacks.cartAdd.pattern, async (ctx) => {
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
  });

  privateChats.callbackQuery(callbacks.cartSet.pattern, async (ctx) => {
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
    await show(
      ctx,
      result.status === "ok" || result.status === "too-many-lines" ? result.cart : undefined,
    );
  });

  privateChats.callbackQuery(callbacks.cartEmpty.pattern, async (ctx) => {
    if (!callbacks.cartEmpty.decode(ctx.callbackQuery.data))
      return ctx.answerCallbackQuery({ text: ctx.t("button-invalid") });
    const cart = await deps.cart.clear(ctx.from.id);
    await ctx.answerCallbackQuery({ text: ctx.t("cart-emptied") });
    await show(ctx, cart);
  });

  privateChats.callbackQuery(callbacks.checkout.pattern, async (ctx) => {
    const data = callbacks.checkout.decode(ctx.callbackQuery.data);
    const message = ctx.callbackQuery.message;
    if (!data || !message) return ctx.answerCallbackQuery({ text: ctx.t("button-invalid") });
    const result = await deps.cart.checkout({
      userId: ctx.from.id,
      chatId: ctx.chat.id,
      revision: data.revision,
      idempotencyKey: orderIntentKey(ctx.chat.id, message.message_id, ctx.callbackQuery.data),
    });
    await tellCheckout(ctx, result);
  });

  async function tellCheckout(ctx: BotContext, result: CheckoutResult): Promise<void> {
    if (await tellPlacementRefusal(ctx, result, "checkout")) return;
    switch (result.status) {
      case "ok": {
        await ctx.answerCallbackQuery();
        // Before the reply, so that a re-delivery after a failed reply still finds them queued.
        await deps.lowStock.afterSale(result.order.items.map((item) => item.sku));
        const card = orderCard(ctx, result.order);
        // The message now showing the order (a new one when it replaced a photo card).
        const shown = await showInPlace(ctx, card.text, card.keyboard);
        if (shown !== undefined && ctx.chat)
          await deps.orderMessages?.setCard(result.order.id, ctx.chat.id, shown);
        return;
      }
      case "empty":
        await alert(ctx, ctx.t("cart-empty"));
        return show(ctx);
      case "changed":
      case "cart-changed":
        await alert(ctx, ctx.t("cart-changed"));
        return show(ctx);
      case "out-of-stock": {
        const cart = await deps.cart.view(ctx.from!.id);
        const title = (sku: string) =>
          cart.lines.find((l) => l.product.sku === sku)?.product.title[ctx.locale] ?? sku;
        const items = result.short.map((line) =>
          line.available === 0
            ? ctx.t("cart-short-none", { title: title(line.sku) })
            : ctx.t("cart-short-item", { title: title(line.sku), available: line.available }),
        );
        const shortage = ctx.t("cart-short", { items: items.join(", ") });
        return show(ctx, cart, await alertOrDefer(ctx, shortage, ctx.t("cart-short-alert")));
      }
      case "promo-refused":
        // Nothing reserved; the cart keeps its code, shown with why, and a button to take it off.
        await alert(
          ctx,
          ctx.t("promo-refused", { code: result.code, why: refusalText(ctx.t, result) }),
        );
        return show(ctx);
      case "mixed-kinds":
        // One invoice, one currency: Stars pay for digital goods only (a callback alert holds
        // 200 characters, so the message names the kinds, not every product).
        await alert(ctx, ctx.t("cart-mixed-kinds"));
        return show(ctx);
      case "amount-out-of-range":
        await alert(
          ctx,
          ctx.t("cart-amount-out-of-range", {
            total: formatMoney(result.amountMinor, result.currency),
            max: formatMoney(result.maxMinor, result.currency),
          }),
        );
        return;
    }
  }

  return feature;
}
