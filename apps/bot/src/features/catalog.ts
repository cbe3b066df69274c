import { Composer, type InlineKeyboard } from "grammy";
import type { ProductView } from "@orderbot/core";
import type { CartService } from "@orderbot/core/cart";
import type { CatalogService } from "@orderbot/core/catalog";
import type { BotContext, PrivateButtonContext, PrivateCommandContext } from "../bot/context.ts";
import { callbacks, formatMoney } from "@orderbot/conversation";
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
  privateChats.command("catalog", (ctx) => replyWithCatalog(ctx, deps));
  privateChats.callbackQuery(callbacks.catalogPage.pattern, (ctx) => openCatalog(ctx, deps));
  privateChats.callbackQuery(callbacks.category.pattern, (ctx) => openCategory(ctx, deps));
  return feature;
}

async function replyWithCatalog(ctx: PrivateCommandContext, deps: CatalogFeatureDeps) {
  const { text, keyboard } = await catalogRoot(ctx, deps);
  await ctx.reply(text, { reply_markup: keyboard });
}

async function openCatalog(ctx: PrivateButtonContext, deps: CatalogFeatureDeps) {
  const data = callbacks.catalogPage.decode(ctx.callbackQuery.data);
  if (!data) return ctx.answerCallbackQuery({ text: ctx.t("button-invalid") });
  const { text, keyboard } = await catalogRoot(ctx, deps);
  await ctx.answerCallbackQuery();
  await showInPlace(ctx, text, keyboard);
}

async function openCategory(ctx: PrivateButtonContext, deps: CatalogFeatureDeps) {
  const data = callbacks.category.decode(ctx.callbackQuery.data);
  if (!data) return ctx.answerCallbackQuery({ text: ctx.t("button-invalid") });
  const { text, keyboard } = await categoryListing(ctx, deps, data.categoryId, data.page);
  await ctx.answerCallbackQuery();
  await showInPlace(ctx, text, keyboard);
}

/** The categories with products (and "Other products"); without categories, the product list. */
async function catalogRoot(ctx: BotContext, deps: CatalogFeatureDeps): Promise<Screen> {
  const top = await deps.catalog.categories();
  if (top.length === 0) return categoryListing(ctx, deps, 0, 1);
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
async function categoryListing(
  ctx: BotContext,
  deps: CatalogFeatureDeps,
  categoryId: number,
  page: number,
): Promise<Screen> {
  const category = categoryId === 0 ? null : await deps.catalog.category({ id: categoryId });
  if (categoryId !== 0 && !category) return catalogRoot(ctx, deps);
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
      back: backButton(ctx, category, hasCategories),
    }),
  };
}

/** A subcategory goes back to its parent, a top category to the categories; none without any. */
function backButton(
  ctx: BotContext,
  category: { parentId: number | null } | null,
  hasCategories: boolean,
) {
  if (!hasCategories) return undefined;
  return category?.parentId
    ? {
        label: ctx.t("btn-back-list"),
        data: callbacks.category.encode({ categoryId: category.parentId, page: 1 }),
      }
    : { label: ctx.t("btn-back"), data: callbacks.catalogPage.encode({ page: 1 }) };
}
