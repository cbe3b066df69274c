import type { CheckoutResult } from "@orderbot/core/cart";
import type { BotContext, PrivateButtonContext } from "../bot/context.ts";
import { callbacks, formatMoney } from "@orderbot/conversation";
import { orderCard } from "../format/order-card.ts";
import { refusalText } from "../format/promo.ts";
import type { CartFeatureDeps } from "./cart.ts";
import { showCart } from "./cart-screen.ts";
import { orderIntentKey } from "./order.ts";
import { isPlacementRefusal, tellPlacementRefusal } from "./placement-refusals.ts";
import { alert, alertOrDefer, showInPlace } from "./support.ts";

/** Checkout on the cart: the whole cart becomes one order (core's cart.checkout: all lines or none). */
export async function checkout(ctx: PrivateButtonContext, deps: CartFeatureDeps) {
  const data = callbacks.checkout.decode(ctx.callbackQuery.data);
  const message = ctx.callbackQuery.message;
  if (!data || !message) return ctx.answerCallbackQuery({ text: ctx.t("button-invalid") });
  const result = await deps.cart.checkout({
    userId: ctx.from.id,
    chatId: ctx.chat.id,
    revision: data.revision,
    idempotencyKey: orderIntentKey(ctx.chat.id, message.message_id, ctx.callbackQuery.data),
  });
  await tellCheckout(ctx, deps, result);
}

async function tellCheckout(
  ctx: BotContext,
  deps: CartFeatureDeps,
  result: CheckoutResult,
): Promise<void> {
  if (isPlacementRefusal(result)) return tellPlacementRefusal(ctx, result, "checkout");
  switch (result.status) {
    case "ok": {
      await ctx.answerCallbackQuery();
      const card = orderCard(ctx, result.order);
      // The message now showing the order (a new one when it replaced a photo card).
      const shown = await showInPlace(ctx, card.text, card.keyboard);
      if (shown !== undefined && ctx.chat)
        await deps.orderMessages?.setCard(result.order.id, ctx.chat.id, shown);
      return;
    }
    case "empty":
      await alert(ctx, ctx.t("cart-empty"));
      return showCart(ctx, deps);
    case "changed":
      await alert(ctx, ctx.t("cart-changed"));
      return showCart(ctx, deps);
    case "out-of-stock":
      return tellShortage(ctx, deps, result.short);
    case "promo-refused":
      // Nothing reserved; the cart keeps its code, shown with why, and a button to take it off.
      await alert(
        ctx,
        ctx.t("promo-refused", { code: result.code, why: refusalText(ctx.t, result) }),
      );
      return showCart(ctx, deps);
    case "mixed-kinds":
      // One invoice, one currency: Stars pay for digital goods only (a callback alert holds
      // 200 characters, so the message names the kinds, not every product).
      await alert(ctx, ctx.t("cart-mixed-kinds"));
      return showCart(ctx, deps);
    case "amount-out-of-range":
      await alert(
        ctx,
        ctx.t("cart-amount-out-of-range", {
          total: formatMoney(result.amountMinor, result.currency),
          max: formatMoney(result.maxMinor, result.currency),
        }),
      );
      return;
    default:
      result satisfies never;
  }
}

/** What is short, by product title, with the cart as it is now. */
async function tellShortage(
  ctx: BotContext,
  deps: CartFeatureDeps,
  short: Extract<CheckoutResult, { status: "out-of-stock" }>["short"],
): Promise<void> {
  const cart = await deps.cart.view(ctx.from!.id);
  const title = (sku: string) =>
    cart.lines.find((l) => l.product.sku === sku)?.product.title[ctx.locale] ?? sku;
  const items = short.map((line) =>
    line.available === 0
      ? ctx.t("cart-short-none", { title: title(line.sku) })
      : ctx.t("cart-short-item", { title: title(line.sku), available: line.available }),
  );
  const shortage = ctx.t("cart-short", { items: items.join(", ") });
  return showCart(ctx, deps, cart, await alertOrDefer(ctx, shortage, ctx.t("cart-short-alert")));
}
