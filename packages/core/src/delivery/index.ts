// @orderbot/core/delivery: digital goods: code pools and their delivery.
export { createDeliveryService, type DeliveryService } from "./service.ts";
export type { LoadCodesInput, LoadCodesResult } from "./load-codes.ts";
export type { PoolSummary } from "./queries.ts";
export { codeOfLine, MAX_CODE_LENGTH, MAX_CODES_PER_BATCH, type CodeLines } from "./code-lines.ts";
export { DELIVERY_TEXT_LIMIT, deliveryKey } from "./queue-delivery.ts";
