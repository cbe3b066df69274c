import type { CoreDeps } from "../deps.ts";
import { publicIdSchema } from "../orders/public-id-schema.ts";
import {
  createAdvanceOrder,
  type AdvanceOrderInput,
  type AdvanceOrderResult,
} from "./advance-order.ts";
import { timelinesOf, type TimelineEntryView } from "./timeline.ts";

export interface FulfilmentService {
  /** An operator moves a paid order on (PROCESSING, SHIPPED, DELIVERED); see advance-order.ts. */
  advance(input: AdvanceOrderInput): Promise<AdvanceOrderResult>;
  /** Orders' timelines by public id, oldest entry first (for /orders and the order card). */
  timelines(orderIds: readonly string[]): Promise<Map<string, TimelineEntryView[]>>;
}

export function createFulfilmentService(deps: CoreDeps): FulfilmentService {
  return {
    advance: createAdvanceOrder(deps),
    async timelines(orderIds) {
      const valid = orderIds.filter((id) => publicIdSchema.safeParse(id).success);
      return timelinesOf(deps.db, valid);
    },
  };
}
