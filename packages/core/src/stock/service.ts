import type { CoreDeps } from "../deps.ts";
import { createAdjustStock } from "./adjust-stock.ts";
import { createImportStockBatch } from "./import-batch.ts";
import { createSetPrice } from "./set-price.ts";

export type StockService = ReturnType<typeof createStockService>;

export function createStockService(deps: CoreDeps) {
  return {
    /** Add, remove or set units; with a `requestId` (the command's identity), a retry changes nothing twice. */
    adjustStock: createAdjustStock(deps),
    /** `/price SKU AMOUNT`. */
    setPrice: createSetPrice(deps),
    /** A delivery of stock, applied once per batch id. */
    importBatch: createImportStockBatch(deps),
  };
}
