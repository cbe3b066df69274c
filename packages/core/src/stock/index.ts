// @orderbot/core/stock: stock changes, imports and the ledger (low-stock alerts: a trigger, migration
// 20261207000000_low_stock_event).
export { createStockService, type StockService } from "./service.ts";
export {
  MAX_STOCK_UNITS,
  STOCK_OPS,
  type AdjustStockResult,
  type StockChange,
  type StockOp,
} from "./adjust-stock.ts";
export type { SetPriceInput, SetPriceResult } from "./set-price.ts";
export type { ImportStockBatchInput, ImportStockBatchResult } from "./import-batch.ts";
