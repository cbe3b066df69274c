// Where a paid order can go next: the steps an operator is offered for an order in each state.
import type { OrderStatus } from "@orderbot/db";
import type { FulfilmentStep } from "./advance-order.ts";

const NEXT: Partial<Record<OrderStatus, readonly FulfilmentStep[]>> = {
  PAID: ["PROCESSING", "SHIPPED"],
  PROCESSING: ["SHIPPED"],
  SHIPPED: ["DELIVERED"],
};

/** The steps offered next: none once it is delivered, refunded or not paid. */
export function nextFulfilmentSteps(status: OrderStatus): readonly FulfilmentStep[] {
  return NEXT[status] ?? [];
}
