// Rows the schema tests start from: valid in every column, so that a test changes only the one
// its constraint is about.
import type { Database, Prisma } from "@orderbot/db";

let seq = 0;
/** A unique name per call (shared by the files of a worker: still unique in each database). */
export const unique = (prefix: string) => `${prefix}-${++seq}`;

/** A product of 5 units of tea at 10 Stars, with `data` over those defaults. */
export const teaProduct = (db: Database, data: Partial<Prisma.ProductUncheckedCreateInput> = {}) =>
  db.product.create({
    data: {
      sku: unique("SKU"),
      titleEn: "Tea",
      titleZh: "茶",
      priceMinor: 10,
      currency: "XTR",
      stock: 5,
      ...data,
    },
  });
