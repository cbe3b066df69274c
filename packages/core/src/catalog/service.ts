import { z } from "zod";
import type { CoreDeps } from "./deps.ts";
import { productView, type ProductView } from "./views.ts";

export interface CatalogPage {
  items: ProductView[];
  page: number;
  pageSize: number;
  total: number;
  hasMore: boolean;
}

export interface CatalogService {
  /** Active products, with price and the stock available to reserve, by id; pages from 1. */
  list(options?: { page?: number; pageSize?: number }): Promise<CatalogPage>;
  /** One product by id or sku (inactive ones too: operators look them up). */
  get(ref: { id: number } | { sku: string }): Promise<ProductView | null>;
  /** Every product, active or not, for operators' /products. */
  all(): Promise<ProductView[]>;
}

const pageSchema = z.object({
  page: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(50).default(8),
});

export function createCatalogService(deps: CoreDeps): CatalogService {
  const { db } = deps;
  return {
    async list(options = {}) {
      const { page, pageSize } = pageSchema.parse(options);
      const [total, rows] = await Promise.all([
        db.product.count({ where: { active: true } }),
        db.product.findMany({
          where: { active: true },
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
    async get(ref) {
      const row =
        "id" in ref
          ? await db.product.findUnique({ where: { id: ref.id } })
          : await db.product.findUnique({ where: { sku: ref.sku } });
      return row ? productView(row) : null;
    },
    async all() {
      return (await db.product.findMany({ orderBy: { id: "asc" } })).map(productView);
    },
  };
}
