import { sqlStateOf } from "@orderbot/db";
import type { CoreDeps } from "../deps.ts";
import { heldUnits, unpaidHoldCap } from "../stock/unpaid-holds.ts";

/**
 * Why a reservation's COMMIT failed, when its lines could not take their stock: the deferred
 * trigger that takes each line's units inside COMMIT (migration order_lines_take_stock) raises
 * one of these SQLSTATEs, and the whole transaction has rolled back.
 */
const SHORTFALL = {
  /** A product could not give a line its units: short, repriced or taken off sale. */
  stock: "OBST1",
  /** A line would take the product's unpaid holds past `maxUnpaidShare` (stock/unpaid-holds.ts). */
  unpaidCap: "OBST2",
} as const;

/** A line the stock cannot serve: what was asked, and what is left for this order. */
export interface ShortLine {
  sku: string;
  requested: number;
  available: number;
}

export interface ReservedLine {
  productId: number;
  sku: string;
  quantity: number;
  unitPriceMinor: number;
}

/**
 * What a reservation whose lines could not take their stock tells the customer, read after the
 * rollback: the lines that are short (with what is left of each, `available`), or "stale" when
 * nothing is short now (a price, a currency or the product's sale changed since the order was
 * priced, or the stock came back) and the order is to be priced again. Undefined when the error
 * is not a shortfall.
 */
export async function shortfallOf(
  deps: CoreDeps,
  error: unknown,
  lines: readonly ReservedLine[],
  currency: string,
): Promise<ShortLine[] | "stale" | undefined> {
  const sqlState = sqlStateOf(error);
  if (sqlState === SHORTFALL.stock) {
    deps.metrics.stockConflicts.inc({ op: "place_order" });
    const products = await deps.db.product.findMany({
      where: { id: { in: lines.map((l) => l.productId) } },
    });
    const byId = new Map(products.map((p) => [p.id, p]));
    const repriced = lines.some((l) => {
      const p = byId.get(l.productId);
      return !p || !p.active || p.priceMinor !== l.unitPriceMinor || p.currency !== currency;
    });
    const short = lines.flatMap((l) => {
      const available = byId.get(l.productId)?.stock ?? 0;
      return available < l.quantity ? [{ sku: l.sku, requested: l.quantity, available }] : [];
    });
    return repriced || short.length === 0 ? "stale" : short;
  }
  if (sqlState === SHORTFALL.unpaidCap) {
    deps.metrics.operations.inc({ op: "place_order", outcome: "unpaid_cap" });
    // Counted without this order, which rolled back: its units are among the free ones again.
    const units = await heldUnits(
      deps.db,
      lines.map((l) => l.productId),
    );
    const over = lines.flatMap((line) => {
      const product = units.find((u) => u.productId === line.productId);
      if (!product) return [];
      const cap = unpaidHoldCap(product, deps.config.maxUnpaidShare);
      if (product.held + line.quantity <= cap) return [];
      return [
        { sku: line.sku, requested: line.quantity, available: Math.max(0, cap - product.held) },
      ];
    });
    return over.length === 0 ? "stale" : over;
  }
  return undefined;
}
