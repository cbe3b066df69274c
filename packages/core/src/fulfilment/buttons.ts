// The next-step buttons of a paid order, as the operators' alert carries them. The worker renders
// the labels in the group's language; the bot decodes the data with its `fulfil` callback codec
// (apps/bot/src/callbacks/index.ts), whose prefix and fields this must match.
import type { OrderStatus } from "@orderbot/db";
import type { FulfilmentStep } from "./advance-order.ts";

export const FULFILMENT_CALLBACK_PREFIX = "fm";

export interface FulfilmentButton {
  step: FulfilmentStep;
  /** The text the worker renders as its label: `btn-fulfil-<step>`. */
  label: string;
  /** Callback data: `fm:<order public id>:<step>`. */
  data: string;
}

const NEXT: Partial<Record<OrderStatus, readonly FulfilmentStep[]>> = {
  PAID: ["PROCESSING", "SHIPPED"],
  PROCESSING: ["SHIPPED"],
  SHIPPED: ["DELIVERED"],
};

/** The buttons for an order in `status`: none once it is delivered, refunded or not paid. */
export function fulfilmentButtons(orderId: string, status: OrderStatus): FulfilmentButton[] {
  return (NEXT[status] ?? []).map((step) => ({
    step,
    label: `btn-fulfil-${step.toLowerCase()}`,
    data: `${FULFILMENT_CALLBACK_PREFIX}:${orderId}:${step}`,
  }));
}
