// Operators' category management (/category in the operator group): add, rename, remove, and
// products assigned to a category. The database keeps the shape: unique slugs, one level of
// nesting (a composite foreign key), no removal of a category still in use (RESTRICT).
import { Prisma } from "@orderbot/db";
import { z } from "zod";
import type { CoreDeps } from "../deps.ts";
import { invalid, type Invalid } from "../results.ts";
import { skuSchema, parseWith } from "../validation.ts";
import { findCategory, type CategoryView } from "./category-queries.ts";

export const categorySlugSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9-]{0,31}$/, "slug");

const titleSchema = z.string().trim().min(1).max(64);

const createSchema = z.object({
  slug: categorySlugSchema,
  titleEn: titleSchema,
  titleZh: titleSchema,
  /** The top-level category it goes in; none: top level. */
  parent: categorySlugSchema.optional(),
});

const renameSchema = z.object({
  slug: categorySlugSchema,
  titleEn: titleSchema,
  titleZh: titleSchema,
});
const assignSchema = z.object({ sku: skuSchema, slug: categorySlugSchema.nullable() });

export type CreateCategoryInput = z.input<typeof createSchema>;
export type RenameCategoryInput = z.input<typeof renameSchema>;

type Missing = { status: "not-found"; what: "category" | "parent" | "product" };

export type CategoryChangeResult =
  | { status: "ok"; category: CategoryView }
  | { status: "exists"; slug: string }
  /** The parent is itself a subcategory: categories nest one level only. */
  | { status: "too-deep"; parent: string }
  | Missing
  | Invalid;

export type RemoveCategoryResult =
  | { status: "ok"; slug: string }
  | { status: "not-empty"; products: number; subcategories: number }
  | Missing
  | Invalid;

export type AssignProductResult =
  | { status: "ok"; sku: string; category: CategoryView | null }
  | { status: "unchanged"; sku: string; category: CategoryView | null }
  | Missing
  | Invalid;

export interface CategoryAdmin {
  create(input: CreateCategoryInput): Promise<CategoryChangeResult>;
  rename(input: RenameCategoryInput): Promise<CategoryChangeResult>;
  remove(slug: string): Promise<RemoveCategoryResult>;
  /** Puts a product in a category (null: in none). */
  assign(input: { sku: string; slug: string | null }): Promise<AssignProductResult>;
}

const FOREIGN_KEY = "23503";

function isForeignKeyViolation(error: unknown): boolean {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return false;
  if (error.code === "P2003") return true;
  const meta = error.meta as { driverAdapterError?: { cause?: { originalCode?: string } } };
  return meta?.driverAdapterError?.cause?.originalCode === FOREIGN_KEY;
}

function isUnique(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
}

export function createCategoryAdmin(deps: CoreDeps): CategoryAdmin {
  return {
    create: (input) => createCategory(deps, input),
    rename: (input) => renameCategory(deps, input),
    remove: (slug) => removeCategory(deps, slug),
    assign: (input) => assignProduct(deps, input),
  };
}

function done(deps: CoreDeps, op: string, outcome: string) {
  deps.metrics.operations.inc({ op, outcome: outcome.replace(/-/g, "_") });
}

async function createCategory(
  deps: CoreDeps,
  raw: CreateCategoryInput,
): Promise<CategoryChangeResult> {
  const parsed = parseWith(createSchema, raw);
  if (!parsed.ok) return invalid(parsed.problems);
  const input = parsed.value;
  let parentId: number | null = null;
  if (input.parent) {
    const parent = await findCategory(deps.db, { slug: input.parent });
    if (!parent) return { status: "not-found", what: "parent" };
    if (parent.parentId !== null) return { status: "too-deep", parent: parent.slug };
    parentId = parent.id;
  }
  try {
    const [last] = await deps.db.category.findMany({
      where: { parentId },
      orderBy: { position: "desc" },
      take: 1,
    });
    await deps.db.category.create({
      data: {
        slug: input.slug,
        titleEn: input.titleEn,
        titleZh: input.titleZh,
        parentId,
        level: parentId === null ? 0 : 1,
        position: (last?.position ?? 0) + 1,
      },
    });
  } catch (error) {
    if (isUnique(error)) return { status: "exists", slug: input.slug };
    // The parent became a subcategory, or went, since it was read: the foreign key refuses.
    if (isForeignKeyViolation(error)) return { status: "not-found", what: "parent" };
    throw error;
  }
  done(deps, "category_create", "ok");
  return { status: "ok", category: (await findCategory(deps.db, { slug: input.slug }))! };
}

async function renameCategory(
  deps: CoreDeps,
  raw: RenameCategoryInput,
): Promise<CategoryChangeResult> {
  const parsed = parseWith(renameSchema, raw);
  if (!parsed.ok) return invalid(parsed.problems);
  const { slug, titleEn, titleZh } = parsed.value;
  const { count } = await deps.db.category.updateMany({
    where: { slug },
    data: { titleEn, titleZh },
  });
  if (count === 0) return { status: "not-found", what: "category" };
  done(deps, "category_rename", "ok");
  return { status: "ok", category: (await findCategory(deps.db, { slug }))! };
}

async function removeCategory(deps: CoreDeps, raw: string): Promise<RemoveCategoryResult> {
  const parsed = parseWith(categorySlugSchema, raw);
  if (!parsed.ok) return invalid(parsed.problems);
  const slug = parsed.value;
  const category = await deps.db.category.findUnique({ where: { slug } });
  if (!category) return { status: "not-found", what: "category" };
  const [products, subcategories] = await Promise.all([
    deps.db.product.count({ where: { categoryId: category.id } }),
    deps.db.category.count({ where: { parentId: category.id } }),
  ]);
  if (products > 0 || subcategories > 0) return { status: "not-empty", products, subcategories };
  try {
    const { count } = await deps.db.category.deleteMany({ where: { id: category.id } });
    if (count === 0) return { status: "not-found", what: "category" };
  } catch (error) {
    // A product or a subcategory was added since the count: the foreign keys refuse.
    if (!isForeignKeyViolation(error)) throw error;
    return { status: "not-empty", products: 1, subcategories: 0 };
  }
  done(deps, "category_remove", "ok");
  return { status: "ok", slug };
}

async function assignProduct(
  deps: CoreDeps,
  raw: { sku: string; slug: string | null },
): Promise<AssignProductResult> {
  const parsed = parseWith(assignSchema, raw);
  if (!parsed.ok) return invalid(parsed.problems);
  const { sku, slug } = parsed.value;
  const product = await deps.db.product.findFirst({
    where: { sku: { equals: sku, mode: "insensitive" } },
  });
  if (!product) return { status: "not-found", what: "product" };
  const category = slug === null ? null : await findCategory(deps.db, { slug });
  if (slug !== null && !category) return { status: "not-found", what: "category" };
  const categoryId = category?.id ?? null;
  if (product.categoryId === categoryId) return { status: "unchanged", sku: product.sku, category };
  try {
    await deps.db.product.update({ where: { id: product.id }, data: { categoryId } });
  } catch (error) {
    if (isForeignKeyViolation(error)) return { status: "not-found", what: "category" };
    throw error;
  }
  done(deps, "category_assign", "ok");
  return {
    status: "ok",
    sku: product.sku,
    category: category && (await findCategory(deps.db, { id: category.id })),
  };
}
