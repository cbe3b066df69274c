import type { Sql } from "../database/sql.ts";
import { productView, type ProductView } from "../views.ts";

export interface CartLineView {
  product: ProductView;
  quantity: number;
}

/** A customer's cart: what they picked, at today's prices. It holds no stock. */
export interface CartView {
  userId: bigint;
  /** Goes up with every change; Checkout carries the revision it was drawn from. */
  revision: number;
  /** In the order they were first added. */
  lines: CartLineView[];
  units: number;
  /** The lines still on sale, at today's prices (one currency: the shop's). */
  totalMinor: number;
  currency: string | null;
}

export async function readCart(db: Sql, userId: bigint): Promise<CartView> {
  const cart = await db.cart.findUnique({
    where: { userId },
    include: { items: { include: { product: true }, orderBy: [{ createdAt: "asc" }] } },
  });
  const lines = (cart?.items ?? []).map((item) => ({
    product: productView(item.product),
    quantity: item.quantity,
  }));
  const onSale = lines.filter((l) => l.product.active);
  return {
    userId,
    revision: cart?.revision ?? 0,
    lines,
    units: lines.reduce((sum, l) => sum + l.quantity, 0),
    totalMinor: onSale.reduce((sum, l) => sum + l.product.priceMinor * l.quantity, 0),
    currency: onSale[0]?.product.currency ?? null,
  };
}
