// One invoice has one currency, and Stars may pay only for digital goods: a cart with both kinds
// cannot be one order. It is refused at checkout, naming both sides, so that the buyer checks out
// one kind first (docs/architecture.md, Two kinds of goods).
import type { Database } from "@orderbot/db";

export interface MixedKinds {
  status: "mixed-kinds";
  /** The skus of each kind in the cart. */
  physical: string[];
  digital: string[];
}

/** The cart's two kinds when it has both; null when every line is of one kind. */
export async function mixedKinds(
  db: Database,
  skus: readonly string[],
): Promise<MixedKinds | null> {
  const products = await db.product.findMany({
    where: { sku: { in: [...skus] } },
    select: { sku: true, kind: true },
    orderBy: { sku: "asc" },
  });
  const physical = products.filter((p) => p.kind === "PHYSICAL").map((p) => p.sku);
  const digital = products.filter((p) => p.kind === "DIGITAL").map((p) => p.sku);
  return physical.length > 0 && digital.length > 0
    ? { status: "mixed-kinds", physical, digital }
    : null;
}
