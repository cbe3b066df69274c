// The conditional update on a version column: of two writers who read the same version, one
// wins and the other is told (no row back), never silently overwritten. The version column is
// products.version (prisma/migrations/20261129000000_init); every write of a product bumps it.
import type { ProductModel, Tx } from "@orderbot/db";

export interface VersionedPriceWrite {
  productId: number;
  /** The price the writer read: the condition when it has no version (see below). */
  seenPriceMinor: number;
  /** The version the writer read: the write holds only if no write of the product came between. */
  expectedVersion?: number;
  priceMinor: number;
}

/**
 * UPDATE products SET price_minor = $new, version = version + 1
 *  WHERE id = $id AND version = $expected RETURNING *
 * The row written, or null: someone wrote first, and the caller reports a conflict.
 * Without an expected version the condition is `price_minor = $seen` instead, a deliberate
 * variant: orders bump the version too, and an operator's `/price` should not lose to a sale.
 */
export async function writePriceIfUnchanged(
  tx: Tx,
  write: VersionedPriceWrite,
): Promise<ProductModel | null> {
  const [row] = await tx.product.updateManyAndReturn({
    where:
      write.expectedVersion === undefined
        ? { id: write.productId, priceMinor: write.seenPriceMinor }
        : { id: write.productId, version: write.expectedVersion },
    data: { priceMinor: write.priceMinor, version: { increment: 1 } },
  });
  return row ?? null;
}
