// An order priced before its transaction: its lines at today's prices, its promo, its total.
import type { ProductKind } from "@orderbot/db";
import type { CoreDeps } from "../deps.ts";
import type { Problem } from "../problems.ts";
import { invalid, type Invalid } from "../results.ts";
import {
  checkInvoiceAmount,
  INVOICE_LIMITS,
  type InvoiceAmountRefusal,
} from "../payments/invoice-limits.ts";
import type { ValidPlaceOrder } from "./place-order-input.ts";
import { newPublicId } from "./public-id.ts";
import type { PlaceOrderResult } from "./reserve.ts";
import { priceOrderPromo, type OrderPromo } from "../promotions/reservation.ts";

/** The largest total an order can have: `orders.total_minor` is a PostgreSQL integer. */
const MAX_TOTAL_MINOR = 2_147_483_647;

interface Line {
  productId: number;
  sku: string;
  title: { en: string; zh: string };
  kind: ProductKind;
  quantity: number;
  unitPriceMinor: number;
}

export type PricedLine = Line & { currency: string; available: number };

/** The order's lines with today's prices, or why the input names products that cannot be sold. */
export async function priceLines(
  deps: CoreDeps,
  input: ValidPlaceOrder,
): Promise<PricedLine[] | Invalid | InvoiceAmountRefusal> {
  const products = await deps.db.product.findMany({
    where: { sku: { in: input.items.map((i) => i.sku) } },
  });
  const bySku = new Map(products.map((p) => [p.sku, p]));
  const problems: Problem[] = [];
  const lines: PricedLine[] = [];
  input.items.forEach((item, index) => {
    const product = bySku.get(item.sku);
    if (!product)
      return problems.push({ field: `items.${index}.sku`, rule: "unknown", bound: item.sku });
    if (!product.active)
      return problems.push({ field: `items.${index}.sku`, rule: "not-on-sale", bound: item.sku });
    lines.push({
      productId: product.id,
      sku: product.sku,
      title: { en: product.titleEn, zh: product.titleZh },
      kind: product.kind,
      quantity: item.quantity,
      unitPriceMinor: product.priceMinor,
      currency: product.currency,
      available: product.stock,
    });
  });
  if (new Set(lines.map((l) => l.currency)).size > 1)
    problems.push({ field: "items", rule: "mixed-currencies" });
  if (lines.reduce((sum, l) => sum + l.unitPriceMinor * l.quantity, 0) > MAX_TOTAL_MINOR)
    problems.push({ field: "items", rule: "max", bound: MAX_TOTAL_MINOR });
  if (problems.length > 0) return invalid(problems);
  const total = lines.reduce((sum, l) => sum + l.unitPriceMinor * l.quantity, 0);
  const currency = lines[0]!.currency;
  const payable = checkInvoiceAmount(total, currency);
  if (payable.status !== "ok") return payable;
  const cap = deps.config.maxOrderTotalMinor;
  if (cap !== undefined && total > cap) {
    const limit = INVOICE_LIMITS[currency]!;
    return {
      status: "amount-out-of-range",
      currency,
      amountMinor: total,
      minMinor: limit.minMinor,
      maxMinor: Math.min(cap, limit.maxMinor),
    };
  }
  // The fixed lock order: every placement updates its products' rows in ascending id order,
  // whatever order the cart was filled in, so two carts holding the same products in opposite
  // orders wait for each other instead of deadlocking (docs/architecture.md, The cart).
  return lines.sort((a, b) => a.productId - b.productId);
}

/** An order about to be reserved: its lines at today's prices, its promo, its total and id. */
export interface PricedOrder {
  lines: PricedLine[];
  currency: string;
  promo: OrderPromo | null;
  totalMinor: number;
  expiresAt: Date;
  publicId: string;
}

/** Prices the lines and the promo code, or the refusal to answer with before any transaction. */
export async function priceOrder(
  deps: CoreDeps,
  input: ValidPlaceOrder,
): Promise<{ ok: true; plan: PricedOrder } | { ok: false; refusal: PlaceOrderResult }> {
  const priced = await priceLines(deps, input);
  if (!Array.isArray(priced)) return { ok: false, refusal: priced };
  const short = priced.filter((line) => line.available < line.quantity);
  if (short.length > 0)
    // A fresh read already shows it: answer without a transaction (a sold-out sale stays cheap).
    return {
      ok: false,
      refusal: {
        status: "out-of-stock",
        short: short.map((l) => ({ sku: l.sku, requested: l.quantity, available: l.available })),
      },
    };
  const currency = priced[0]!.currency;
  const subtotalMinor = priced.reduce((sum, l) => sum + l.unitPriceMinor * l.quantity, 0);
  let promo: OrderPromo | null = null;
  if (input.promoCodeId !== undefined) {
    const withCode = await priceOrderPromo(deps, input.promoCodeId, subtotalMinor, currency);
    if (withCode.status === "promo-refused") return { ok: false, refusal: withCode };
    promo = withCode;
  }
  const now = deps.clock.now();
  const plan: PricedOrder = {
    lines: priced,
    currency,
    promo,
    totalMinor: promo ? promo.totalMinor : subtotalMinor,
    expiresAt: new Date(now.getTime() + deps.config.reservationTtlMs),
    publicId: newPublicId(deps.config.publicIdLength),
  };
  return { ok: true, plan };
}
