// The conditional update on a version column: of two writers who read the same version, one
// wins and the other is told (no row back), never silently overwritten. The version column is
// products.version (prisma/migrations/20261129000000_init); every write of a product bumps it.
import type { ProductModel, Tx } from "@orderbot/db";

export interface VersionedPriceWrite {
  productId: number;
  /** The price the writer read: the write is conditional on it still being there. */
  seenPriceMinor: number;
  /** The version the writer read, when it must not have moved at all (strict). */
  expectedVersion?: number;
  priceMinor: number;
}

/**
 * UPDATE products SET price_minor = $new, version = version + 1
 *  WHERE id = $id AND price_minor = $seen [AND version = $expected] RETURNING *
 * The row written, or null: someone wrote first, and the caller reports a conflict.
 */
export async function writePriceIfUnchanged(
  tx: Tx,
  write: VersionedPriceWrite,
): Promise<ProductModel | null> {
  const [row] = await tx.product.updateManyAndReturn({
    where: {
      id: write.productId,
      priceMinor: write.seenPriceMinor,
      ...(write.expectedVersion === undefined ? {} : { version: write.expectedVersion }),
    },
    data: { priceMinor: write.priceMinor, version: { increment: 1 } },
  });
  return row ?? null;
}
