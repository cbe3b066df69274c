// One catalog row, checked: what an operator's commands would accept for the same product.
import { z } from "zod";
import { parseMoney } from "../money.ts";
import { issueParams, problemOf, type Problem } from "../problems.ts";
import { categorySlugSchema } from "../catalog/categories.ts";
import { parseProductPhoto } from "../catalog/photos.ts";
import { checkInvoiceAmount } from "../payments/invoice-limits.ts";
import { currencySchema, skuSchema } from "../validation.ts";
import type { CatalogColumn } from "./csv.ts";

const title = z.string().min(1).max(200);

const fieldsSchema = z.object({
  sku: skuSchema,
  title_en: title,
  title_zh: title,
  category: z.union([z.literal(""), categorySlugSchema]),
  price: z.string().min(1),
  currency: currencySchema,
  kind: z.enum(["digital", "physical"]),
  stock: z
    .string()
    .refine((text) => /^\d{1,7}$/.test(text), issueParams("integer"))
    .transform(Number)
    .refine((units) => units <= 1_000_000, issueParams("max", 1_000_000)),
  photo: z.string(),
});

export interface CatalogRow {
  line: number;
  sku: string;
  titleEn: string;
  titleZh: string;
  /** A category's slug; null: in none. */
  category: string | null;
  priceMinor: number;
  currency: string;
  kind: "DIGITAL" | "PHYSICAL";
  /** Opening stock: only a product the file creates takes it. */
  stock: number;
  /** As the file gives it: a Telegram file_id, an HTTP(S) URL or a file's path; null: none. */
  photo: PhotoCell;
}

/** A file_id is stored as it is; a URL or a path is a source to upload (or, a URL, to keep). */
export type PhotoCell =
  | null
  | { kind: "file-id"; fileId: string }
  | { kind: "url"; url: string }
  | { kind: "path"; path: string };

/** A path: no scheme, no line breaks, at most 2048 characters (the column's bound). */
const PATH = /^[^\s:][^\n\r]{0,2047}$/;

function photoCell(text: string): PhotoCell | "invalid" {
  if (text === "") return null;
  const stored = parseProductPhoto(text);
  if (stored !== null)
    return /^https?:\/\//i.test(stored)
      ? { kind: "url", url: stored }
      : { kind: "file-id", fileId: stored };
  return PATH.test(text) && !text.includes("://") ? { kind: "path", path: text } : "invalid";
}

export type RowResult = { ok: true; row: CatalogRow } | { ok: false; problem: Problem };

const refused = (field: string, rule: Problem["rule"], bound?: string | number): RowResult => ({
  ok: false,
  problem: bound === undefined ? { field, rule } : { field, rule, bound },
});

export function parseCatalogRow(line: number, fields: Record<CatalogColumn, string>): RowResult {
  const parsed = fieldsSchema.safeParse(fields);
  if (!parsed.success) return { ok: false, problem: problemOf(parsed.error.issues[0]!) };
  const value = parsed.data;
  const kind = value.kind === "digital" ? "DIGITAL" : "PHYSICAL";
  if ((kind === "DIGITAL") !== (value.currency === "XTR"))
    return refused("currency", "kind-currency");
  const priceMinor = parseMoney(value.price, value.currency);
  if (priceMinor === null) return refused("price", "format", "amount");
  if (checkInvoiceAmount(priceMinor, value.currency).status !== "ok")
    return refused("price", "invoice-amount");
  const photo = photoCell(value.photo);
  if (photo === "invalid") return refused("photo", "format", "photo");
  return {
    ok: true,
    row: {
      line,
      sku: value.sku,
      titleEn: value.title_en,
      titleZh: value.title_zh,
      category: value.category === "" ? null : value.category,
      priceMinor,
      currency: value.currency,
      kind,
      stock: value.stock,
      photo,
    },
  };
}
