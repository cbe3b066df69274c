import { Composer } from "grammy";
import { formatMoney, type CatalogService, type ProductView } from "@orderbot/core";
import type { BotContext } from "../bot/context.ts";
import { callbacks } from "../callbacks/index.ts";
import { productKeyboard } from "../keyboards/product.ts";
import { showInPlace } from "./support.ts";

/** The card text and keyboard for `qty` units of a product, clamped to what can be ordered now. */
export function productCard(
  ctx: BotContext,
  product: ProductView,
  qty: number,
  page: number,
  maxUnitsPerLine: number,
) {
  const maxQty = Math.min(product.stock, maxUnitsPerLine, 99);
  const units = Math.max(1, Math.min(qty, maxQty));
  const total = formatMoney(product.priceMinor * units, product.currency);
  const text = ctx.t("product-card", {
    title: product.title[ctx.locale],
    price: formatMoney(product.priceMinor, product.currency),
    stock: product.stock,
    qty: units,
    total,
  });
  return {
    text,
    keyboard: productKeyboard(ctx.t, { productId: product.id, qty: units, maxQty, page, total }),
  };
}

/** A product's card: price, stock, and − quantity + with the total, then Order. */
export function productFeature(deps: {
  catalog: CatalogService;
  maxUnitsPerLine: number;
}): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  const privateChats = feature.chatType("private");

  privateChats.callbackQuery(callbacks.product.pattern, async (ctx) => {
    const data = callbacks.product.decode(ctx.callbackQuery.data);
    if (!data) return ctx.answerCallbackQuery({ text: ctx.t("button-invalid") });
    const product = await deps.catalog.get({ id: data.productId });
    if (!product?.active)
      return ctx.answerCallbackQuery({ text: ctx.t("product-gone"), show_alert: true });
    const { text, keyboard } = productCard(ctx, product, data.qty, data.page, deps.maxUnitsPerLine);
    await ctx.answerCallbackQuery();
    await showInPlace(ctx, text, keyboard);
  });

  return feature;
}
