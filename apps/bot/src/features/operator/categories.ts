import { problemsText } from "@orderbot/conversation";
import { Composer, type CommandContext } from "grammy";
import type { CatalogService, CategoryAdmin, CategoryView } from "@orderbot/core/catalog";
import type { Invalid } from "@orderbot/core";
import type { BotContext } from "../../bot/context.ts";
import { pages } from "../../format/pages.ts";
import { respond } from "./guard.ts";

export const CATEGORY_COMMANDS = ["categories", "category"] as const;

/** "English | 中文": both titles of a category. */
function titles(words: string[]): { titleEn: string; titleZh: string } | null {
  const [en, zh, ...rest] = words.join(" ").split("|");
  if (!en?.trim() || !zh?.trim() || rest.length > 0) return null;
  return { titleEn: en.trim(), titleZh: zh.trim() };
}

type CategoriesDeps = { catalog: CatalogService; categories: CategoryAdmin };

/**
 * The operator group's category commands:
 * - `/categories`: the tree, with each category's slug and product count;
 * - `/category add SLUG English | 中文` (`PARENT/SLUG` for a subcategory: one level only);
 * - `/category rename SLUG English | 中文`; `/category remove SLUG` (only an empty one);
 * - `/category set SKU SLUG` puts a product in a category (`none`: in none).
 */
export function categoriesFeature(deps: CategoriesDeps): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  feature.command("categories", (ctx) => listCategories(ctx, deps.catalog));
  feature.command("category", (ctx) => categoryCommand(ctx, deps.categories));
  return feature;
}

function line(ctx: BotContext, c: CategoryView, indent: string): string {
  return ctx.t("op-category-line", {
    indent,
    slug: c.slug,
    title: c.title[ctx.locale],
    count: c.productCount,
  });
}

/** The tree, each category with its slug and product count, then the products in none. */
async function listCategories(ctx: BotContext, catalog: CatalogService): Promise<void> {
  const top = await catalog.categories();
  if (top.length === 0) return respond(ctx, ctx.t("op-categories-empty"));
  const lines = [ctx.t("op-categories-title")];
  for (const c of top) {
    lines.push(line(ctx, c, ""));
    if (c.subcategoryCount > 0)
      for (const sub of await catalog.categories(c.id)) lines.push(line(ctx, sub, "   "));
  }
  const other = await catalog.uncategorizedCount();
  if (other > 0) lines.push(ctx.t("op-categories-other", { count: other }));
  for (const page of pages(lines)) await respond(ctx, page);
}

async function categoryCommand(
  ctx: CommandContext<BotContext>,
  categories: CategoryAdmin,
): Promise<void> {
  const [action, first, ...rest] = ctx.match.split(/\s+/).filter(Boolean);
  const usage = () => respond(ctx, ctx.t("op-category-usage"));
  switch (action?.toLowerCase()) {
    case "add": {
      const names = titles(rest);
      if (!first || !names) return usage();
      const [parent, slug] = first.includes("/") ? first.split("/", 2) : [undefined, first];
      const result = await categories.create({
        slug: slug ?? "",
        ...names,
        ...(parent ? { parent } : {}),
      });
      return respond(ctx, changeText(ctx, result, "op-category-added"));
    }
    case "rename": {
      const names = titles(rest);
      if (!first || !names) return usage();
      const result = await categories.rename({ slug: first, ...names });
      return respond(ctx, changeText(ctx, result, "op-category-renamed"));
    }
    case "remove":
      if (!first || rest.length > 0) return usage();
      return removeCategory(ctx, categories, first);
    case "set": {
      const [slug, ...extra] = rest;
      if (!first || !slug || extra.length > 0) return usage();
      return setCategory(ctx, categories, first, slug);
    }
    default:
      return usage();
  }
}

/** `/category remove SLUG`: only an empty category goes. */
async function removeCategory(
  ctx: BotContext,
  categories: CategoryAdmin,
  slug: string,
): Promise<void> {
  const result = await categories.remove(slug);
  if (result.status === "ok")
    return respond(ctx, ctx.t("op-category-removed", { slug: result.slug }));
  if (result.status === "not-empty")
    return respond(
      ctx,
      ctx.t("op-category-not-empty", {
        slug: slug.toLowerCase(),
        products: result.products,
        subcategories: result.subcategories,
      }),
    );
  return respond(ctx, refusal(ctx, result, slug));
}

/** `/category set SKU SLUG` (`none`: in no category). */
async function setCategory(
  ctx: BotContext,
  categories: CategoryAdmin,
  sku: string,
  slug: string,
): Promise<void> {
  const result = await categories.assign({
    sku,
    slug: slug.toLowerCase() === "none" ? null : slug,
  });
  if (result.status === "ok" || result.status === "unchanged") {
    const where = result.category ? result.category.title[ctx.locale] : ctx.t("op-category-none");
    return respond(
      ctx,
      ctx.t(result.status === "ok" ? "op-category-assigned" : "op-category-already", {
        sku: result.sku,
        category: where,
      }),
    );
  }
  return respond(ctx, refusal(ctx, result, slug));
}

type Refusal = { status: "not-found"; what: "category" | "parent" | "product" } | Invalid;

function refusal(ctx: BotContext, result: Refusal, name: string): string {
  if (result.status === "invalid")
    return ctx.t("op-category-invalid", { problems: problemsText(ctx.locale, result.problems) });
  return ctx.t(`op-category-missing-${result.what}`, { name });
}

function changeText(
  ctx: BotContext,
  result: Awaited<ReturnType<CategoryAdmin["create"]>>,
  okKey: string,
): string {
  switch (result.status) {
    case "ok":
      return ctx.t(okKey, {
        slug: result.category.slug,
        title: result.category.title[ctx.locale],
      });
    case "exists":
      return ctx.t("op-category-exists", { slug: result.slug });
    case "too-deep":
      return ctx.t("op-category-too-deep", { parent: result.parent });
    default:
      return refusal(ctx, result, "");
  }
}
