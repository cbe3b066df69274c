import type { CoreDeps } from "../deps.ts";
import {
  createCheckPayable,
  type CheckPayableInput,
  type CheckPayableResult,
} from "./check-payable.ts";
import {
  createConfirmPayment,
  type ConfirmPaymentInput,
  type ConfirmPaymentResult,
} from "./confirm-payment.ts";
import { createRefundOrder, type RefundOrderResult } from "./refund-order.ts";
import { createRefundTracking, type RefundTracking } from "./refund-tracking.ts";

export interface PaymentService extends RefundTracking {
  /** pre_checkout_query: may this order be paid now? Answers within the deadline. */
  checkPayable(input: CheckPayableInput): Promise<CheckPayableResult>;
  /** successful_payment: recorded exactly once, applied to its order or put up for refund. */
  confirmPayment(input: ConfirmPaymentInput): Promise<ConfirmPaymentResult>;
  /** An operator's /refund of a paid order. */
  refundOrder(orderId: string, actor: bigint | number | string): Promise<RefundOrderResult>;
}

export function createPaymentService(deps: CoreDeps): PaymentService {
  return {
    checkPayable: createCheckPayable(deps),
    confirmPayment: createConfirmPayment(deps),
    refundOrder: createRefundOrder(deps),
    ...createRefundTracking(deps),
  };
}
