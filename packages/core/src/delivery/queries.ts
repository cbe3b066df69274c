import type { CoreDeps } from "../deps.ts";

/** A digital product's pool as operators see it: counts only, never a code. */
export interface PoolSummary {
  sku: string;
  kind: "DIGITAL" | "PHYSICAL";
  /** Units available to reserve (products.stock). */
  stock: number;
  unused: number;
  assigned: number;
  revoked: number;
}

export async function poolSummary(
  deps: Pick<CoreDeps, "db">,
  sku: string,
): Promise<PoolSummary | null> {
  const product = await deps.db.product.findUnique({
    where: { sku: sku.trim().toUpperCase() },
    select: { id: true, sku: true, kind: true, stock: true },
  });
  if (!product) return null;
  const [counts] = await deps.db.$queryRaw<{ unused: number; assigned: number; revoked: number }[]>`
    SELECT COUNT(*) FILTER (WHERE order_id IS NULL AND revoked_at IS NULL)::int AS unused,
           COUNT(*) FILTER (WHERE order_id IS NOT NULL AND revoked_at IS NULL)::int AS assigned,
           COUNT(*) FILTER (WHERE revoked_at IS NOT NULL)::int AS revoked
      FROM digital_items WHERE product_id = ${product.id}`;
  return {
    sku: product.sku,
    kind: product.kind,
    stock: product.stock,
    unused: counts?.unused ?? 0,
    assigned: counts?.assigned ?? 0,
    revoked: counts?.revoked ?? 0,
  };
}

/**
 * The codes an order received, for its owner only (the order's page under /orders): what the
 * delivery message said, shown again. Revoked ones (a refunded order) are left out.
 */
export async function orderCodes(
  deps: Pick<CoreDeps, "db">,
  orderPublicId: string,
  userId: bigint | number | string,
): Promise<string[]> {
  const items = await deps.db.digitalItem.findMany({
    where: {
      revokedAt: null,
      order: { publicId: orderPublicId.trim().toUpperCase(), userId: BigInt(userId) },
    },
    orderBy: { id: "asc" },
    select: { secret: true },
  });
  return items.map((item) => item.secret);
}
