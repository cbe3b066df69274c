// What a catalog file would do to the shop, read without writing: each row a product to create,
// one to change (and which fields), one already as the file says, or a refusal with its reason.
import type { Database, ProductModel } from "@orderbot/db";
import type { Problem } from "../problems.ts";
import type { Refusal } from "./csv.ts";
import { photoChanged, planPhoto, type PlannedPhoto } from "./photo.ts";
import type { CatalogRow } from "./row.ts";

/** The fields a file changes on an existing product; stock moves only by /stock and orders. */
export type ChangedField = "title_en" | "title_zh" | "category" | "price" | "photo";

export type PlannedRow =
  | { action: "create"; row: CatalogRow; categoryId: number | null; photo: PlannedPhoto }
  | {
      action: "change";
      row: CatalogRow;
      categoryId: number | null;
      photo: PlannedPhoto;
      product: ProductModel;
      fields: ChangedField[];
    }
  | { action: "unchanged"; row: CatalogRow };

export type Plan = { ok: true; rows: PlannedRow[] } | { ok: false; refused: Refusal[] };

/** `canUpload`: the caller can upload photos (it has the bot's token). */
export async function planCatalog(
  db: Database,
  rows: readonly CatalogRow[],
  canUpload: boolean,
): Promise<Plan> {
  const [products, categories] = await Promise.all([
    db.product.findMany({ where: { sku: { in: rows.map((row) => row.sku) } } }),
    db.category.findMany({ select: { id: true, slug: true } }),
  ]);
  const bySku = new Map(products.map((product) => [product.sku, product]));
  const categoryIds = new Map(categories.map((category) => [category.slug, category.id]));
  const firstLine = new Map<string, number>();
  const refused: Refusal[] = [];
  const planned: PlannedRow[] = [];
  for (const row of rows) {
    const refuse = (problem: Problem) => refused.push({ line: row.line, sku: row.sku, problem });
    const earlier = firstLine.get(row.sku);
    if (earlier !== undefined) {
      refuse({ field: "sku", rule: "duplicate", bound: row.sku });
      continue;
    }
    firstLine.set(row.sku, row.line);
    const categoryId = row.category === null ? null : categoryIds.get(row.category);
    if (categoryId === undefined) {
      refuse({ field: "category", rule: "unknown", bound: row.category ?? "" });
      continue;
    }
    const product = bySku.get(row.sku);
    const photo = planPhoto(row.photo, product, canUpload);
    if (photo === "needs-uploader") {
      refuse({ field: "photo", rule: "needs-bot-token" });
      continue;
    }
    if (!product) {
      planned.push({ action: "create", row, categoryId, photo });
      continue;
    }
    const fixed = fixedFieldProblem(row, product);
    if (fixed) refuse(fixed);
    else planned.push(changeOf(row, categoryId, photo, product));
  }
  return refused.length ? { ok: false, refused } : { ok: true, rows: planned };
}

/** A product's currency and kind stay what orders were placed in. */
function fixedFieldProblem(row: CatalogRow, product: ProductModel): Problem | null {
  if (row.currency !== product.currency)
    return { field: "currency", rule: "fixed", bound: product.currency };
  if (row.kind !== product.kind)
    return { field: "kind", rule: "fixed", bound: product.kind.toLowerCase() };
  return null;
}

function changeOf(
  row: CatalogRow,
  categoryId: number | null,
  photo: PlannedPhoto,
  product: ProductModel,
): PlannedRow {
  const fields: ChangedField[] = [];
  if (row.titleEn !== product.titleEn) fields.push("title_en");
  if (row.titleZh !== product.titleZh) fields.push("title_zh");
  if (categoryId !== product.categoryId) fields.push("category");
  if (row.priceMinor !== product.priceMinor) fields.push("price");
  if (photoChanged(photo, product)) fields.push("photo");
  return fields.length
    ? { action: "change", row, categoryId, photo, product, fields }
    : { action: "unchanged", row };
}
