// The chat's spelling of a stock change, "/stock SKU +5": parsed here, so core takes a typed one.
import type { StockChange } from "@orderbot/core/stock";

const OPS = { "+": "add", "-": "remove", "=": "set" } as const;

/** "+N" adds, "-N" removes, "=N" sets; null for anything else (core checks the bounds). */
export function parseStockChange(text: string): StockChange | null {
  const match = /^([+\-=])(\d{1,7})$/.exec(text.trim());
  if (!match) return null;
  return { op: OPS[match[1] as keyof typeof OPS], units: Number(match[2]) };
}
