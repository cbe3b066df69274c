import { Composer } from "grammy";
import type { ProductView } from "@orderbot/core";
import type { CatalogService } from "@orderbot/core/catalog";
import { type OrderService, type PlaceOrderResult } from "@orderbot/core/orders";
import type { BotContext, PrivateButtonContext } from "../bot/context.ts";
import { callbacks, type OrderMessages, formatMoney } from "@orderbot/conversation";
import { orderCard } from "../format/order-card.ts";
import { productCard } from "./product.ts";
import { showProductCard } from "./product-card.ts";
import { isPlacementRefusal, tellPlacementRefusal } from "./placement-refusals.ts";
import { alert, showInPlace } from "./support.ts";

export interface OrderFeatureDeps {
  catalog: CatalogService;
  orders: OrderService;
  maxUnitsPerLine: number;
  orderMessages?: Pick<OrderMessages, "setCard">;
}

/**
 * The idempotency key of a press: the message the button is on, and the button's data. A double
 * tap, or Telegram re-delivering the update, presses the same button on the same message: the
 * order service returns the order the first press placed instead of placing another. After an
 * order is placed, its card turns into the order, so the same message cannot order again.
 */
export function orderIntentKey(chatId: number, messageId: number, data: string): string {
  return `tap:${chatId}:${messageId}:${data}`;
}

/** Order on a product card: reserve the stock, then show the order with Pay and Cancel. */
export function orderFeature(deps: OrderFeatureDeps): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  feature
    .chatType("private")
    .callbackQuery(callbacks.order.pattern, (ctx) => orderProduct(ctx, deps));
  return feature;
}

async function orderProduct(ctx: PrivateButtonContext, deps: OrderFeatureDeps) {
  const data = callbacks.order.decode(ctx.callbackQuery.data);
  const message = ctx.callbackQuery.message;
  if (!data || !message) return ctx.answerCallbackQuery({ text: ctx.t("button-invalid") });
  const product = await deps.catalog.get({ id: data.productId });
  if (!product?.active) return alert(ctx, ctx.t("product-gone"));

  const result = await deps.orders.placeOrder({
    userId: ctx.from.id,
    chatId: ctx.chat.id,
    items: [{ sku: product.sku, quantity: data.qty }],
    idempotencyKey: orderIntentKey(ctx.chat.id, message.message_id, ctx.callbackQuery.data),
  });
  await tellOutcome(ctx, deps, result, product, data);
}

type Pressed = { qty: number; categoryId: number; page: number };

async function tellOutcome(
  ctx: BotContext,
  deps: OrderFeatureDeps,
  result: PlaceOrderResult,
  product: ProductView,
  pressed: Pressed,
): Promise<void> {
  if (isPlacementRefusal(result)) return tellPlacementRefusal(ctx, result, "order");
  switch (result.status) {
    case "ok": {
      const { order } = result;
      await ctx.answerCallbackQuery();
      // In the shop's time zone, as every card: "held until 20:58 (Asia/Shanghai)".
      const card = orderCard(ctx, order);
      const shown = await showInPlace(ctx, card.text, card.keyboard);
      // That message is the order's card from now on: kept true when the order changes.
      if (shown !== undefined && ctx.chat)
        await deps.orderMessages?.setCard(order.id, ctx.chat.id, shown);
      return;
    }
    case "amount-out-of-range":
      // Telegram would refuse the invoice at Pay: refused here, before any stock is held.
      await alert(
        ctx,
        ctx.t("order-amount-out-of-range", {
          total: formatMoney(result.amountMinor, result.currency),
          min: formatMoney(result.minMinor, result.currency),
          max: formatMoney(result.maxMinor, result.currency),
        }),
      );
      return;
    case "out-of-stock":
      return tellOutOfStock(ctx, deps, result.short, product, pressed);
    case "cart-changed":
    case "promo-refused":
      // Only a cart's checkout carries a cart revision or a promo code: a bug if seen here.
      ctx.logger.error({ status: result.status }, "a product's Order got a cart's answer");
      await alert(ctx, ctx.t("order-invalid"));
      return;
    default:
      result satisfies never;
  }
}

async function tellOutOfStock(
  ctx: BotContext,
  deps: OrderFeatureDeps,
  short: Extract<PlaceOrderResult, { status: "out-of-stock" }>["short"],
  product: ProductView,
  pressed: Pressed,
): Promise<void> {
  const items = short.map((line) =>
    ctx.t("out-of-stock-item", {
      title: product.title[ctx.locale],
      available: line.available,
    }),
  );
  await alert(ctx, ctx.t("out-of-stock", { items: items.join(", ") }));
  // Show the card again with what is left, so the next press can succeed.
  const fresh = await deps.catalog.get({ id: product.id });
  if (fresh) {
    const card = productCard(ctx, fresh, pressed.qty, {
      categoryId: pressed.categoryId,
      page: pressed.page,
      inCart: 0,
      cartUnits: 0,
      maxUnitsPerLine: deps.maxUnitsPerLine,
    });
    await showProductCard(ctx, fresh, card);
  }
}
