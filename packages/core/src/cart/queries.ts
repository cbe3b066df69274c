import type { ProductKind, PromoKind } from "@orderbot/db";
import type { Sql } from "../database/sql.ts";
import { priceWithCode, type PromoRefusal } from "../promotions/terms.ts";
import { productView, type ProductView } from "../views.ts";

export interface CartLineView {
  product: ProductView;
  /** PHYSICAL or DIGITAL: one checkout takes one kind (shipping/mixed-cart.ts). */
  kind: ProductKind;
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
  /** The lines still on sale, at today's prices (one currency: the shop's), before any discount. */
  totalMinor: number;
  currency: string | null;
  /** The promo code applied to the cart, and what it takes off today; null: none. */
  promo: CartPromoView | null;
}

export interface CartPromoView {
  codeId: number;
  code: string;
  kind: PromoKind;
  value: number;
  /** Taken off `totalMinor` (0 while the code cannot be used: `problem`). */
  discountMinor: number;
  /** What checkout would charge: `totalMinor` less the discount. */
  payableMinor: number;
  /** Why the code would be refused at checkout now (expired, used up, below its minimum...). */
  problem: PromoRefusal | null;
}

export async function readCart(db: Sql, userId: bigint, now: Date): Promise<CartView> {
  const cart = await db.cart.findUnique({
    where: { userId },
    include: {
      items: { include: { product: true }, orderBy: [{ createdAt: "asc" }] },
      promoCode: true,
    },
  });
  const lines = (cart?.items ?? []).map((item) => ({
    product: productView(item.product),
    kind: item.product.kind,
    quantity: item.quantity,
  }));
  const onSale = lines.filter((l) => l.product.active);
  const totalMinor = onSale.reduce((sum, l) => sum + l.product.priceMinor * l.quantity, 0);
  const currency = onSale[0]?.product.currency ?? null;
  const code = cart?.promoCode;
  let promo: CartPromoView | null = null;
  if (code) {
    const price =
      currency === null ? null : priceWithCode(code, { subtotalMinor: totalMinor, currency, now });
    const ok = price?.status === "ok" ? price : null;
    promo = {
      codeId: code.id,
      code: code.code,
      kind: code.kind,
      value: code.value,
      discountMinor: ok?.discountMinor ?? 0,
      payableMinor: ok?.totalMinor ?? totalMinor,
      problem: price?.status === "promo-refused" ? price : null,
    };
  }
  return {
    userId,
    revision: cart?.revision ?? 0,
    lines,
    units: lines.reduce((sum, l) => sum + l.quantity, 0),
    totalMinor,
    currency,
    promo,
  };
}
