// One catalog row, checked: what an operator's commands would accept for the same product.
import { z } from "zod";
import { parseMoney } from "../money.ts";
import { categorySlugSchema } from "../catalog/categories.ts";
import { parseProductPhoto } from "../catalog/photos.ts";
import { checkInvoiceAmount } from "../payments/invoice-limits.ts";
import { currencySchema, skuSchema } from "../validation.ts";
import type { CatalogColumn } from "./csv.ts";

const title = z.string().min(1, "is empty").max(200, "is longer than 200 characters");

const fieldsSchema = z.object({
  sku: skuSchema,
  title_en: title,
  title_zh: title,
  category: z.union([z.literal(""), categorySlugSchema]),
  price: z.string().min(1, "is empty"),
  currency: currencySchema,
  kind: z.enum(["digital", "physical"], { error: "must be digital or physical" }),
  stock: z
    .string()
    .regex(/^\d{1,7}$/, "must be a whole number of units")
    .transform(Number)
    .refine((units) => units <= 1_000_000, "must be at most 1000000"),
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

export type RowResult = { ok: true; row: CatalogRow } | { ok: false; reason: string };

export function parseCatalogRow(line: number, fields: Record<CatalogColumn, string>): RowResult {
  const parsed = fieldsSchema.safeParse(fields);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, reason: `${String(issue.path[0])}: ${issue.message}` };
  }
  const value = parsed.data;
  const kind = value.kind === "digital" ? "DIGITAL" : "PHYSICAL";
  if ((kind === "DIGITAL") !== (value.currency === "XTR"))
    return { ok: false, reason: "currency: digital goods sell for XTR, physical goods in another" };
  const priceMinor = parseMoney(value.price, value.currency);
  if (priceMinor === null) return { ok: false, reason: `price: "${value.price}" is not an amount` };
  if (checkInvoiceAmount(priceMinor, value.currency).status !== "ok")
    return { ok: false, reason: "price: no invoice can ask this amount" };
  const photo = photoCell(value.photo);
  if (photo === "invalid")
    return { ok: false, reason: "photo: must be a file's path, an HTTP(S) URL or a file_id" };
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
