// One invoice has one currency, and Stars may pay only for digital goods: a cart with both kinds
// cannot be one order. It is refused at checkout, naming both sides, so that the buyer checks out
// one kind first (docs/architecture.md, Two kinds of goods).
import type { ProductKind } from "@orderbot/db";

export interface MixedKinds {
  status: "mixed-kinds";
  /** The skus of each kind in the cart. */
  physical: string[];
  digital: string[];
}

/** The cart's two kinds when it has both; null when every line is of one kind. */
export function mixedKinds(
  lines: readonly { product: { sku: string }; kind: ProductKind }[],
): MixedKinds | null {
  const skus = (kind: ProductKind) =>
    lines
      .filter((l) => l.kind === kind)
      .map((l) => l.product.sku)
      .sort();
  const physical = skus("PHYSICAL");
  const digital = skus("DIGITAL");
  return physical.length > 0 && digital.length > 0
    ? { status: "mixed-kinds", physical, digital }
    : null;
}
