import type { CoreDeps } from "../deps.ts";
import { createLoadCodes } from "./load-codes.ts";
import { orderCodes, poolSummary, type PoolSummary } from "./queries.ts";

export type DeliveryService = ReturnType<typeof createDeliveryService>;

/** Digital goods from a pool: operators load it, payments take from it (payments/record-payment.ts). */
export function createDeliveryService(deps: CoreDeps) {
  return {
    /** `/codes SKU` with a list or a file: one idempotent stock batch. */
    loadCodes: createLoadCodes(deps),
    /** `/codes SKU` alone: unused, assigned and revoked counts. Null: no such product. */
    pool: (sku: string): Promise<PoolSummary | null> => poolSummary(deps, sku),
    /** The codes of one of the user's orders (none when it is not theirs). */
    orderCodes: (orderId: string, userId: bigint | number | string): Promise<string[]> =>
      orderCodes(deps, orderId, userId),
  };
}
