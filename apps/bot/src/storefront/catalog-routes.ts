// Browsing: categories, a category's products, search (core's, in both languages) and one
// product with the stock left to reserve. Reads only.
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { CatalogService } from "@orderbot/core/catalog";
import { categoryJson, productJson } from "./json.ts";
import { badRequest, parse } from "./requests.ts";

const PAGE_SIZE = 24;

const listQuery = z.object({
  /** A category's id, or "none" for the products in no category; absent: every product. */
  category: z.union([z.literal("none"), z.coerce.number().int().min(1)]).optional(),
  page: z.coerce.number().int().min(1).max(1000).default(1),
});
const categoriesQuery = z.object({ parent: z.coerce.number().int().min(1).optional() });
const searchQuery = z.object({
  q: z.string().trim().min(1).max(200),
  page: z.coerce.number().int().min(1).max(1000).default(1),
});
const skuParams = z.object({ sku: z.string().min(1).max(64) });

export function catalogRoutes(app: FastifyInstance, catalog: CatalogService): void {
  app.get("/categories", async (request, reply) => {
    const query = parse(categoriesQuery, request.query);
    if (!query.ok) return badRequest(reply, query.problems);
    const [categories, uncategorized] = await Promise.all([
      catalog.categories(query.value.parent ?? null),
      catalog.uncategorizedCount(),
    ]);
    return { categories: categories.map(categoryJson), uncategorizedProducts: uncategorized };
  });

  app.get("/products", async (request, reply) => {
    const query = parse(listQuery, request.query);
    if (!query.ok) return badRequest(reply, query.problems);
    const { category, page } = query.value;
    const categoryId =
      category === undefined ? {} : { categoryId: category === "none" ? null : category };
    const listed = await catalog.list({ page, pageSize: PAGE_SIZE, ...categoryId });
    return {
      items: listed.items.map(productJson),
      page,
      total: listed.total,
      hasMore: listed.hasMore,
    };
  });

  app.get("/search", async (request, reply) => {
    const query = parse(searchQuery, request.query);
    if (!query.ok) return badRequest(reply, query.problems);
    const found = await catalog.search(query.value.q, {
      page: query.value.page,
      pageSize: PAGE_SIZE,
    });
    return {
      query: found.query,
      items: found.items.map(productJson),
      page: found.page,
      total: found.total,
      hasMore: found.hasMore,
      nearMatches: found.fuzzy,
    };
  });

  app.get("/products/:sku", async (request, reply) => {
    const params = parse(skuParams, request.params);
    if (!params.ok) return badRequest(reply, params.problems);
    const product = await catalog.get({ sku: params.value.sku });
    // One taken off sale is not offered: a direct link to it finds nothing.
    if (!product?.active) return reply.code(404).send({ status: "not-found" });
    return { product: productJson(product) };
  });
}
