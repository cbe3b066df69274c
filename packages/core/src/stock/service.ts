import type { CoreDeps } from "../deps.ts";
import type { Actor } from "../rights/may-do.ts";
import { createAdjustStock, type AdjustStockResult, type StockChange } from "./adjust-stock.ts";
import {
  createImportStockBatch,
  type ImportStockBatchInput,
  type ImportStockBatchResult,
} from "./import-batch.ts";
import { createSetPrice, type SetPriceInput, type SetPriceResult } from "./set-price.ts";

export interface StockService {
  /** Add, remove or set units; with a `requestId` (the command's identity), a retry changes nothing twice. */
  adjustStock(
    sku: string,
    change: StockChange,
    actor: Actor,
    options?: { requestId?: string },
  ): Promise<AdjustStockResult>;
  /** `/price SKU AMOUNT`. */
  setPrice(input: SetPriceInput): Promise<SetPriceResult>;
  /** A delivery of stock, applied once per batch id. */
  importBatch(input: ImportStockBatchInput): Promise<ImportStockBatchResult>;
}

export function createStockService(deps: CoreDeps): StockService {
  return {
    adjustStock: createAdjustStock(deps),
    setPrice: createSetPrice(deps),
    importBatch: createImportStockBatch(deps),
  };
}
