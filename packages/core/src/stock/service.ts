import type { CoreDeps } from "../deps.ts";
import type { Actor } from "../rights/may-do.ts";
import { createAdjustStock, type AdjustStockResult } from "./adjust-stock.ts";
import {
  createImportStockBatch,
  type ImportStockBatchInput,
  type ImportStockBatchResult,
} from "./import-batch.ts";
import { createSetPrice, type SetPriceInput, type SetPriceResult } from "./set-price.ts";

export interface StockService {
  /** `/stock SKU +N|-N|=N`; with a `requestId` (the command's chat and message), a retry changes nothing twice. */
  adjustStock(
    sku: string,
    change: string,
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
