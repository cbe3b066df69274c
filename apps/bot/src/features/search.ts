import { Composer } from "grammy";
import type { CatalogService } from "@orderbot/core/catalog";
import type { BotContext } from "../bot/context.ts";
import { callbacks, fitSearchQuery } from "@orderbot/conversation";
import { listingKeyboard } from "../keyboards/catalog.ts";
import { productLines } from "./catalog.ts";
import { showInPlace } from "./support.ts";

/** Plain text longer than this is a message for the shop, not a search. */
const PLAIN_TEXT_SEARCH_MAX = 64;

/**
 * `/search WORDS`, or plain text in the private chat: products whose title, in English or Chinese,
 * holds every word, a page at a time. Plain text that finds nothing goes on to the next feature
 * (the "did not understand" reply, which offers to ask the shop), so questions are never lost.
 */
export function searchFeature(deps: {
  catalog: CatalogService;
  pageSize: number;
}): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  const privateChats = feature.chatType("private");

  async function results(ctx: BotContext, query: string, page: number, fuzzy = true) {
    // The words must fit the "next page" button: the chat's limit, applied before core searches.
    const words = fitSearchQuery(query);
    const found = await deps.catalog.search(words, { page, pageSize: deps.pageSize, fuzzy });
    const pages = Math.max(1, Math.ceil(found.total / found.pageSize));
    const back = { label: ctx.t("btn-back"), data: callbacks.catalogPage.encode({ page: 1 }) };
    if (found.total === 0)
      return { found, text: ctx.t("search-none", { query: found.query }), keyboard: undefined };
    const heading = ctx.t(found.fuzzy ? "search-near" : "search-title", {
      query: found.query,
      count: found.total,
      page,
      pages,
    });
    return {
      found,
      text: [heading, ...productLines(ctx, found.items)].join("\n"),
      keyboard: listingKeyboard(ctx.t, {
        origin: { kind: "search", query: found.query },
        products: found.items.map((p) => ({
          productId: p.id,
          label: p.title[ctx.locale],
          categoryId: p.categoryId ?? 0,
        })),
        page,
        pages,
        back,
      }),
    };
  }

  privateChats.command("search", async (ctx) => {
    const query = ctx.match.trim();
    if (!query) return ctx.reply(ctx.t("search-usage"));
    const { text, keyboard } = await results(ctx, query, 1);
    await ctx.reply(text, {
      reply_markup: keyboard ?? listingKeyboard(ctx.t, emptyListing(ctx)),
    });
  });

  privateChats.callbackQuery(callbacks.searchPage.pattern, async (ctx) => {
    const data = callbacks.searchPage.decode(ctx.callbackQuery.data);
    if (!data) return ctx.answerCallbackQuery({ text: ctx.t("button-invalid") });
    const { text, keyboard } = await results(ctx, data.query, data.page);
    await ctx.answerCallbackQuery();
    await showInPlace(ctx, text, keyboard ?? listingKeyboard(ctx.t, emptyListing(ctx)));
  });

  privateChats.on("message:text", async (ctx, next) => {
    const text = ctx.message.text;
    if (text.startsWith("/") || ctx.message.reply_to_message || text.length > PLAIN_TEXT_SEARCH_MAX)
      return next();
    // Exact matches only: a question that happens to resemble a title is still a question.
    const { found, text: reply, keyboard } = await results(ctx, text, 1, false);
    if (found.total === 0) return next();
    await ctx.reply(reply, { reply_markup: keyboard });
  });

  return feature;
}

function emptyListing(ctx: BotContext) {
  return {
    origin: { kind: "category" as const, categoryId: 0 },
    products: [],
    page: 1,
    pages: 1,
    back: { label: ctx.t("btn-menu-catalog"), data: callbacks.catalogPage.encode({ page: 1 }) },
  };
}
