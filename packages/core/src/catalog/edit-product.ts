// A product's titles and whether it is on sale, edited from the version the caller saw: of two
// editors who saw the same version one wins, and the other is refused with the product as it is
// now, never silently overwritten (the version column: stock/versioned-update.ts).
import { z } from "zod";
import type { CoreDeps } from "../deps.ts";
import { invalid, NOT_FOUND, type Invalid, type NotFound } from "../results.ts";
import { refusalOf, type Actor, type Forbidden } from "../rights/may-do.ts";
import { parseWith, skuSchema, telegramId } from "../validation.ts";
import { productView, type ProductView } from "../views.ts";

/** A title's length, in characters (a catalog file's limit too). */
export const PRODUCT_TITLE_MAX = 200;

export interface EditProductInput {
  sku: string;
  /** Needs the rights table's right for `product`. */
  actor: Actor;
  /** The product version the caller saw: a product changed since is refused, not changed. */
  expectedVersion?: number | undefined;
  title?: { en: string; zh: string } | undefined;
  /** false takes it out of the catalog (orders already placed are kept); true puts it back. */
  onSale?: boolean | undefined;
}

export type EditProductResult =
  | { status: "ok"; product: ProductView }
  /** The product is no longer at `expectedVersion`: nothing changed; `product` is as it is now. */
  | { status: "conflict"; product: ProductView }
  | NotFound
  | Invalid
  | Forbidden;

const title = z.string().trim().min(1).max(PRODUCT_TITLE_MAX);

const inputSchema = z.object({
  sku: skuSchema,
  actor: telegramId,
  expectedVersion: z.number().int().min(0).optional(),
  title: z.object({ en: title, zh: title }).optional(),
  onSale: z.boolean().optional(),
});

export interface ProductEdits {
  /** Titles and sale status, from the version the caller saw (if given). */
  edit(input: EditProductInput): Promise<EditProductResult>;
}

export function createProductEdits(deps: CoreDeps): ProductEdits {
  return { edit: (raw) => editProduct(deps, raw) };
}

async function editProduct(deps: CoreDeps, raw: EditProductInput): Promise<EditProductResult> {
  const refused = refusalOf("product", raw.actor);
  if (refused) return refused;
  const parsed = parseWith(inputSchema, { ...raw, actor: raw.actor.id });
  if (!parsed.ok) return invalid(parsed.problems);
  const { sku, actor, expectedVersion, title, onSale } = parsed.value;
  // One conditional statement: the version read by the caller, if given, is the one written over.
  const [row] = await deps.db.product.updateManyAndReturn({
    where: { sku, ...(expectedVersion === undefined ? {} : { version: expectedVersion }) },
    data: {
      ...(title ? { titleEn: title.en, titleZh: title.zh } : {}),
      ...(onSale === undefined ? {} : { active: onSale }),
      version: { increment: 1 },
    },
  });
  if (!row) {
    const current = await deps.db.product.findUnique({ where: { sku } });
    return current ? { status: "conflict", product: productView(current) } : NOT_FOUND;
  }
  deps.logger.info(
    { operator: deps.mask(actor), sku, title: title !== undefined, onSale },
    "product edited",
  );
  return { status: "ok", product: productView(row) };
}
