import { Composer } from "grammy";
import { formatMoney, type CatalogService } from "@orderbot/core";
import type { BotContext } from "../bot/context.ts";
import { callbacks } from "../callbacks/index.ts";
import { catalogKeyboard } from "../keyboards/catalog.ts";
import { showInPlace } from "./support.ts";

/** /catalog: active products with price and stock, a page at a time, each a button to its card. */
export function catalogFeature(deps: {
  catalog: CatalogService;
  pageSize: number;
}): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  const privateChats = feature.chatType("private");

  async function render(ctx: BotContext, page: number) {
    const result = await deps.catalog.list({ page, pageSize: deps.pageSize });
    const pages = Math.max(1, Math.ceil(result.total / result.pageSize));
    if (result.items.length === 0) return { text: ctx.t("catalog-empty"), keyboard: undefined };
    const lines = result.items.map((p) =>
      ctx.t("catalog-line", {
        title: p.title[ctx.locale],
        price: formatMoney(p.priceMinor, p.currency),
        stock: p.stock,
      }),
    );
    const entries = result.items.map((p) => ({ productId: p.id, label: p.title[ctx.locale] }));
    return {
      text: [ctx.t("catalog-title", { page, pages }), ...lines].join("\n"),
      keyboard: catalogKeyboard(ctx.t, entries, page, pages),
    };
  }

  privateChats.command("catalog", async (ctx) => {
    const { text, keyboard } = await render(ctx, 1);
    await ctx.reply(text, { reply_markup: keyboard });
  });

  privateChats.callbackQuery(callbacks.catalogPage.pattern, async (ctx) => {
    const data = callbacks.catalogPage.decode(ctx.callbackQuery.data);
    if (!data) return ctx.answerCallbackQuery({ text: ctx.t("button-invalid") });
    const { text, keyboard } = await render(ctx, data.page);
    await ctx.answerCallbackQuery();
    await showInPlace(ctx, text, keyboard);
  });

  return feature;
}
