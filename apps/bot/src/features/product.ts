import { Composer } from "grammy";
import type { ProductView } from "@orderbot/core";
import type { CartService } from "@orderbot/core/cart";
import type { CatalogService } from "@orderbot/core/catalog";
import type { BotContext } from "../bot/context.ts";
import { callbacks, formatMoney } from "@orderbot/conversation";
import { productKeyboard } from "../keyboards/product.ts";
import { showProductCard } from "./product-card.ts";

/** Where a card was opened from (its way back), and what the customer's cart holds. */
export interface CardContext {
  categoryId: number;
  page: number;
  /** Units of this product in the cart, and in the whole cart. */
  inCart: number;
  cartUnits: number;
  maxUnitsPerLine: number;
}

/**
 * The card text and keyboard for `qty` units of a product, clamped to what can be ordered now:
 * the stock, the units one order line may hold, less what the cart already has of it.
 */
export function productCard(ctx: BotContext, product: ProductView, qty: number, card: CardContext) {
  const maxQty = Math.min(product.stock, card.maxUnitsPerLine, 99);
  const units = Math.max(1, Math.min(qty, maxQty));
  const total = formatMoney(product.priceMinor * units, product.currency);
  const lines = [
    ctx.t("product-card", {
      title: product.title[ctx.locale],
      price: formatMoney(product.priceMinor, product.currency),
      stock: product.stock,
      qty: units,
      total,
    }),
  ];
  if (card.inCart > 0) lines.push(ctx.t("product-in-cart", { qty: card.inCart }));
  return {
    text: lines.join("\n"),
    keyboard: productKeyboard(ctx.t, {
      productId: product.id,
      qty: units,
      maxQty,
      categoryId: card.categoryId,
      page: card.page,
      total,
      inCart: card.inCart,
      cartUnits: card.cartUnits,
      maxUnitsPerLine: card.maxUnitsPerLine,
    }),
  };
}

export interface ProductFeatureDeps {
  catalog: CatalogService;
  cart: CartService;
  maxUnitsPerLine: number;
}

/** The card of `product` for this customer, opened from `from`, with what their cart holds. */
export async function cardFor(
  ctx: BotContext,
  deps: ProductFeatureDeps,
  product: ProductView,
  qty: number,
  from: { categoryId: number; page: number },
) {
  const cart = await deps.cart.view(ctx.from!.id);
  const inCart = cart.lines.find((l) => l.product.id === product.id)?.quantity ?? 0;
  return productCard(ctx, product, qty, {
    ...from,
    inCart,
    cartUnits: cart.units,
    maxUnitsPerLine: deps.maxUnitsPerLine,
  });
}

/** A product's card: price, stock, − quantity + with the total, Add to cart, Order, and back. */
export function productFeature(deps: ProductFeatureDeps): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  const privateChats = feature.chatType("private");

  privateChats.callbackQuery(callbacks.product.pattern, async (ctx) => {
    const data = callbacks.product.decode(ctx.callbackQuery.data);
    if (!data) return ctx.answerCallbackQuery({ text: ctx.t("button-invalid") });
    const product = await deps.catalog.get({ id: data.productId });
    if (!product?.active)
      return ctx.answerCallbackQuery({ text: ctx.t("product-gone"), show_alert: true });
    const card = await cardFor(ctx, deps, product, data.qty, data);
    await ctx.answerCallbackQuery();
    await showProductCard(ctx, product, card);
  });

  return feature;
}
