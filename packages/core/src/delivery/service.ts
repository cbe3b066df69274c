import type { CoreDeps } from "../deps.ts";
import { createLoadCodes, type LoadCodesInput, type LoadCodesResult } from "./load-codes.ts";
import { orderCodes, poolSummary, type PoolSummary } from "./queries.ts";

/** Digital goods from a pool: operators load it, payments take from it (payments/record-payment.ts). */
export interface DeliveryService {
  /** `/codes SKU` with a list or a file: one idempotent stock batch. */
  loadCodes(input: LoadCodesInput): Promise<LoadCodesResult>;
  /** `/codes SKU` alone: unused, assigned and revoked counts. Null: no such product. */
  pool(sku: string): Promise<PoolSummary | null>;
  /** The codes of one of the user's orders (none when it is not theirs). */
  orderCodes(orderId: string, userId: bigint | number | string): Promise<string[]>;
}

export function createDeliveryService(deps: CoreDeps): DeliveryService {
  return {
    loadCodes: createLoadCodes(deps),
    pool: (sku) => poolSummary(deps, sku),
    orderCodes: (orderId, userId) => orderCodes(deps, orderId, userId),
  };
}
