// @orderbot/core/stock: stock changes, imports, the ledger and low-stock alerts.
export { createStockService, type StockService } from "./service.ts";
export type { AdjustStockResult } from "./adjust-stock.ts";
export type { SetPriceInput, SetPriceResult } from "./set-price.ts";
export type { ImportStockBatchInput, ImportStockBatchResult } from "./import-batch.ts";
export { createLowStockAlerts, type LowStockAlerts } from "./low-stock.ts";
