import { Composer } from "grammy";
import type { CatalogService } from "@orderbot/core/catalog";
import type { BotContext } from "../../bot/context.ts";
import { callbacks, formatMoney } from "@orderbot/conversation";
import { productsKeyboard } from "../../keyboards/products.ts";
import { respond } from "./guard.ts";
import { productPages } from "./product-pages.ts";

/**
 * /products for the operator group's admins: every product, active or not, a page at a time with
 * ◀ ▶ buttons that edit the message in place. One message with every product went past
 * Telegram's 4,096 characters at about 60 products, and the operator then got nothing.
 */
export function productsFeature(deps: { catalog: CatalogService }): Composer<BotContext> {
  const feature = new Composer<BotContext>();

  /** The page's text and buttons, or null without products. Past the last page: the last one. */
  async function render(ctx: BotContext, wanted: number) {
    const products = await deps.catalog.all();
    const lines = products.map((p) =>
      ctx.t("op-products-line", {
        sku: p.sku,
        title: p.title[ctx.locale],
        price: formatMoney(p.priceMinor, p.currency),
        stock: p.stock,
        inactive: p.active ? "" : ctx.t("op-inactive"),
      }),
    );
    const pages = productPages(lines);
    if (pages.length === 0) return null;
    const page = Math.min(wanted, pages.length);
    const head = [ctx.t("op-products-title")];
    if (pages.length > 1) head.push(ctx.t("op-products-page", { page, pages: pages.length }));
    return {
      text: [...head, ...pages[page - 1]!].join("\n"),
      keyboard: productsKeyboard(ctx.t, page, pages.length),
    };
  }

  feature.command("products", async (ctx) => {
    const shown = await render(ctx, 1);
    if (!shown) return respond(ctx, ctx.t("op-products-empty"));
    await ctx.reply(shown.text, shown.keyboard ? { reply_markup: shown.keyboard } : {});
  });

  feature.callbackQuery(callbacks.productsPage.pattern, async (ctx) => {
    const data = callbacks.productsPage.decode(ctx.callbackQuery.data);
    if (!data) return ctx.answerCallbackQuery({ text: ctx.t("button-invalid") });
    const shown = await render(ctx, data.page);
    if (!shown) return respond(ctx, ctx.t("op-products-empty"));
    await ctx.editMessageText(shown.text, shown.keyboard ? { reply_markup: shown.keyboard } : {});
    await ctx.answerCallbackQuery();
  });
  return feature;
}
