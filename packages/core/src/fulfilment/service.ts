import type { CoreDeps } from "../deps.ts";
import { publicIdSchema } from "../orders/public-id-schema.ts";
import { createAdvanceOrder } from "./advance-order.ts";
import { timelinesOf, type TimelineEntryView } from "./timeline.ts";

export type FulfilmentService = ReturnType<typeof createFulfilmentService>;

export function createFulfilmentService(deps: CoreDeps) {
  return {
    /** An operator moves a paid order on (PROCESSING, SHIPPED, DELIVERED); see advance-order.ts. */
    advance: createAdvanceOrder(deps),
    /** Orders' timelines by public id, oldest entry first (for /orders and the order card). */
    async timelines(orderIds: readonly string[]): Promise<Map<string, TimelineEntryView[]>> {
      const valid = orderIds.filter((id) => publicIdSchema.safeParse(id).success);
      return timelinesOf(deps.db, valid);
    },
  };
}
