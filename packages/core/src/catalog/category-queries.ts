import type { Sql } from "../database/sql.ts";

/** A category as the catalog and operators see it. */
export interface CategoryView {
  id: number;
  slug: string;
  title: { en: string; zh: string };
  /** Null for a top-level category. */
  parentId: number | null;
  position: number;
  /** Active products in it, its subcategories' included. */
  productCount: number;
  subcategoryCount: number;
}

interface CategoryRow {
  id: number;
  slug: string;
  title_en: string;
  title_zh: string;
  parent_id: number | null;
  position: number;
  products: number;
  subcategories: number;
}

function categoryView(row: CategoryRow): CategoryView {
  return {
    id: row.id,
    slug: row.slug,
    title: { en: row.title_en, zh: row.title_zh },
    parentId: row.parent_id,
    position: row.position,
    productCount: row.products,
    subcategoryCount: row.subcategories,
  };
}

/** Counting in one statement: a product in a subcategory counts for its parent too. */
function selectCategories(db: Sql, where: "parent" | "id" | "slug", value: number | string | null) {
  const condition =
    where === "parent"
      ? value === null
        ? `c.parent_id IS NULL`
        : `c.parent_id = $1::int`
      : where === "id"
        ? `c.id = $1::int`
        : `c.slug = $1::text`;
  const sql = `
    SELECT c.id, c.slug, c.title_en, c.title_zh, c.parent_id, c.position,
           (SELECT count(*)::int FROM products p
             WHERE p.active AND (p.category_id = c.id
                OR p.category_id IN (SELECT s.id FROM categories s WHERE s.parent_id = c.id))) AS products,
           (SELECT count(*)::int FROM categories s WHERE s.parent_id = c.id) AS subcategories
    FROM categories c WHERE ${condition}
    ORDER BY c.position, c.id`;
  return value === null
    ? db.$queryRawUnsafe<CategoryRow[]>(sql)
    : db.$queryRawUnsafe<CategoryRow[]>(sql, value);
}

export async function listCategories(db: Sql, parentId: number | null): Promise<CategoryView[]> {
  return (await selectCategories(db, "parent", parentId)).map(categoryView);
}

export async function findCategory(
  db: Sql,
  ref: { id: number } | { slug: string },
): Promise<CategoryView | null> {
  const [row] =
    "id" in ref
      ? await selectCategories(db, "id", ref.id)
      : await selectCategories(db, "slug", ref.slug.toLowerCase());
  return row ? categoryView(row) : null;
}
