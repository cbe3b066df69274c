import { Composer, type InlineKeyboard } from "grammy";
import {
  formatMoney,
  type CartService,
  type CatalogService,
  type ProductView,
} from "@orderbot/core";
import type { BotContext } from "../bot/context.ts";
import { callbacks } from "../callbacks/index.ts";
import { categoriesKeyboard, listingKeyboard } from "../keyboards/catalog.ts";
import { showInPlace } from "./support.ts";

type Screen = { text: string; keyboard: InlineKeyboard | undefined };

export interface CatalogFeatureDeps {
  catalog: CatalogService;
  cart: CartService;
  pageSize: number;
}

/** "Title: price (n left)", one line per product. */
export function productLines(ctx: BotContext, products: readonly ProductView[]): string[] {
  return products.map((p) =>
    ctx.t("catalog-line", {
      title: p.title[ctx.locale],
      price: formatMoney(p.priceMinor, p.currency),
      stock: p.stock,
    }),
  );
}

/**
 * /catalog opens on the categories (with "Other products" for those in none); a category shows
 * its subcategories, then its products a page at a time, each a button to its card. A shop without
 * categories shows its products straight away, as a paged list.
 */
export function catalogFeature(deps: CatalogFeatureDeps): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  const privateChats = feature.chatType("private");

  async function root(ctx: BotContext): Promise<Screen> {
    const top = await deps.catalog.categories();
    if (top.length === 0) return listing(ctx, 0, 1);
    const [other, cartUnits] = await Promise.all([
      deps.catalog.uncategorizedCount(),
      deps.cart.units(ctx.from!.id),
    ]);
    const entries = top
      .filter((c) => c.productCount > 0)
      .map((c) => ({
        categoryId: c.id,
        label: ctx.t("btn-category", { title: c.title[ctx.locale], count: c.productCount }),
      }));
    if (other > 0)
      entries.push({ categoryId: 0, label: ctx.t("btn-category-other", { count: other }) });
    if (entries.length === 0) return { text: ctx.t("catalog-empty"), keyboard: undefined };
    return {
      text: ctx.t("catalog-categories"),
      keyboard: categoriesKeyboard(ctx.t, entries, cartUnits),
    };
  }

  /** A page of one category (0: the products in no category). */
  async function listing(ctx: BotContext, categoryId: number, page: number): Promise<Screen> {
    const category = categoryId === 0 ? null : await deps.catalog.category({ id: categoryId });
    if (categoryId !== 0 && !category) return root(ctx);
    const [result, subcategories, hasCategories] = await Promise.all([
      deps.catalog.list({ page, pageSize: deps.pageSize, categoryId: category?.id ?? null }),
      category && category.parentId === null && page === 1
        ? deps.catalog.categories(category.id)
        : Promise.resolve([]),
      categoryId === 0
        ? deps.catalog.categories().then((all) => all.length > 0)
        : Promise.resolve(true),
    ]);
    const subs = subcategories.filter((c) => c.productCount > 0);
    const pages = Math.max(1, Math.ceil(result.total / result.pageSize));
    if (result.items.length === 0 && subs.length === 0 && !hasCategories)
      return { text: ctx.t("catalog-empty"), keyboard: undefined };
    const heading = category
      ? ctx.t("category-title", { title: category.title[ctx.locale], page, pages })
      : hasCategories
        ? ctx.t("category-other-title", { page, pages })
        : ctx.t("catalog-title", { page, pages });
    const back = !hasCategories
      ? undefined
      : category?.parentId
        ? {
            label: ctx.t("btn-back-list"),
            data: callbacks.category.encode({ categoryId: category.parentId, page: 1 }),
          }
        : { label: ctx.t("btn-back"), data: callbacks.catalogPage.encode({ page: 1 }) };
    return {
      text: [heading, ...productLines(ctx, result.items)].join("\n"),
      keyboard: listingKeyboard(ctx.t, {
        origin: { kind: "category", categoryId },
        categories: subs.map((c) => ({
          categoryId: c.id,
          label: ctx.t("btn-category", { title: c.title[ctx.locale], count: c.productCount }),
        })),
        products: result.items.map((p) => ({
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

  privateChats.command("catalog", async (ctx) => {
    const { text, keyboard } = await root(ctx);
    await ctx.reply(text, { reply_markup: keyboard });
  });

  privateChats.callbackQuery(callbacks.catalogPage.pattern, async (ctx) => {
    const data = callbacks.catalogPage.decode(ctx.callbackQuery.data);
    if (!data) return ctx.answerCallbackQuery({ text: ctx.t("button-invalid") });
    const { text, keyboard } = await root(ctx);
    await ctx.answerCallbackQuery();
    await showInPlace(ctx, text, keyboard);
  });

  privateChats.callbackQuery(callbacks.category.pattern, async (ctx) => {
    const data = callbacks.category.decode(ctx.callbackQuery.data);
    if (!data) return ctx.answerCallbackQuery({ text: ctx.t("button-invalid") });
    const { text, keyboard } = await listing(ctx, data.categoryId, data.page);
    await ctx.answerCallbackQuery();
    await showInPlace(ctx, text, keyboard);
  });

  return feature;
}
