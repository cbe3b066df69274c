import { sqlStateOf } from "@orderbot/db";
import type { CoreDeps } from "../deps.ts";
import { heldUnits } from "../stock/unpaid-holds.ts";

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
}

/**
 * What a reservation whose lines could not take their stock tells the customer, after the
 * rollback. A line its product could not give (short, repriced, off sale) is "price-again": the
 * fresh read that prices the order answers it as the first attempt would (out of stock with what
 * is left, not on sale, or the new price), so it is not read twice here. A line over the unpaid
 * cap, which pricing does not see, is named with what the cap still allows. Undefined when the
 * error is not a shortfall.
 */
export async function shortfallOf(
  deps: CoreDeps,
  error: unknown,
  lines: readonly ReservedLine[],
): Promise<ShortLine[] | "price-again" | undefined> {
  const sqlState = sqlStateOf(error);
  if (sqlState === SHORTFALL.stock) {
    deps.metrics.stockConflicts.inc({ op: "place_order" });
    return "price-again";
  }
  if (sqlState === SHORTFALL.unpaidCap) {
    deps.metrics.operations.inc({ op: "place_order", outcome: "unpaid_cap" });
    // Counted without this order, which rolled back: its units are among the free ones again.
    const units = await heldUnits(
      deps.db,
      lines.map((l) => l.productId),
      deps.config.maxUnpaidShare,
    );
    const over = lines.flatMap((line) => {
      const product = units.find((u) => u.productId === line.productId);
      if (!product) return [];
      if (product.held + line.quantity <= product.cap) return [];
      const available = Math.max(0, product.cap - product.held);
      return [{ sku: line.sku, requested: line.quantity, available }];
    });
    return over.length === 0 ? "price-again" : over;
  }
  return undefined;
}
