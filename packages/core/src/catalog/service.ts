import { z } from "zod";
import type { CoreDeps } from "../deps.ts";
import { productView, type ProductView } from "../views.ts";
import { listCategories, findCategory, type CategoryView } from "./category-queries.ts";
import { searchProducts, type SearchPage } from "./search.ts";

export interface CatalogPage {
  items: ProductView[];
  page: number;
  pageSize: number;
  total: number;
  hasMore: boolean;
}

export type CatalogService = ReturnType<typeof createCatalogService>;

const pageSchema = z.object({
  page: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(50).default(8),
  categoryId: z.number().int().min(1).nullable().optional(),
});

export function createCatalogService(deps: CoreDeps) {
  const { db } = deps;
  return {
    /**
     * Active products, with price and the stock available to reserve, by id; pages from 1.
     * `categoryId`: only that category's own products (null: those in no category); omitted: all.
     */
    async list(
      options: { page?: number; pageSize?: number; categoryId?: number | null } = {},
    ): Promise<CatalogPage> {
      const { page, pageSize, categoryId } = pageSchema.parse(options);
      const where = {
        active: true,
        ...(categoryId === undefined ? {} : { categoryId }),
      };
      const [total, rows] = await Promise.all([
        db.product.count({ where }),
        db.product.findMany({
          where,
          orderBy: { id: "asc" },
          skip: (page - 1) * pageSize,
          take: pageSize,
        }),
      ]);
      return {
        items: rows.map(productView),
        page,
        pageSize,
        total,
        hasMore: page * pageSize < total,
      };
    },
    /** One product by id or sku (inactive ones too: operators look them up). */
    async get(ref: { id: number } | { sku: string }): Promise<ProductView | null> {
      const row =
        "id" in ref
          ? await db.product.findUnique({ where: { id: ref.id } })
          : await db.product.findUnique({ where: { sku: ref.sku } });
      return row ? productView(row) : null;
    },
    /** Every product, active or not, for operators' /products. */
    async all(): Promise<ProductView[]> {
      return (await db.product.findMany({ orderBy: { id: "asc" } })).map(productView);
    },
    /** The top-level categories (parentId null), or one category's subcategories, by position. */
    categories: (parentId: number | null = null): Promise<CategoryView[]> =>
      listCategories(db, parentId),
    /** One category by id or slug. */
    category: (ref: { id: number } | { slug: string }): Promise<CategoryView | null> =>
      findCategory(db, ref),
    /** Active products in no category: the catalog lists them as "Other products". */
    uncategorizedCount: (): Promise<number> =>
      db.product.count({ where: { active: true, categoryId: null } }),
    /** Active products whose title, in either language, holds every word of `query`. */
    search: (
      query: string,
      options?: { page?: number; pageSize?: number; fuzzy?: boolean },
    ): Promise<SearchPage> => searchProducts(db, query, options),
  };
}
