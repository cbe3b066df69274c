import type { Actor } from "../rights/may-do.ts";
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
import { createMoneyExceptions, type MoneyExceptions } from "./money-exceptions.ts";
import { findOwedRefund, type OwedRefund } from "./owed-refunds.ts";
import { createRefundActions, type RefundActions } from "./refund-actions.ts";
import {
  createRefundOrder,
  type RefundOrderOptions,
  type RefundOrderResult,
} from "./refund-order.ts";
import { createRefundTracking, type RefundTracking } from "./refund-tracking.ts";
import {
  createRecordTelegramRefund,
  type TelegramRefundInput,
  type TelegramRefundResult,
} from "./telegram-refund.ts";

export interface PaymentService extends RefundTracking, RefundActions {
  /** pre_checkout_query: may this order be paid now? Answers within the deadline. */
  checkPayable(input: CheckPayableInput): Promise<CheckPayableResult>;
  /** successful_payment: recorded exactly once, applied to its order or put up for refund. */
  confirmPayment(input: ConfirmPaymentInput): Promise<ConfirmPaymentResult>;
  /** An operator's /refund of a paid order (with a reason once its goods went out). */
  refundOrder(
    orderId: string,
    actor: Actor,
    options?: RefundOrderOptions,
  ): Promise<RefundOrderResult>;
  /** refunded_payment: a refund Telegram reports, recorded once, its order moved on. */
  recordTelegramRefund(input: TelegramRefundInput): Promise<TelegramRefundResult>;
  /** What operators' /refunds shows: every money exception that needs a person, by section. */
  moneyExceptions(options: { limit: number }): Promise<MoneyExceptions>;
  /** One payment by its row id, if it is owed back. */
  owedRefund(paymentId: number): Promise<OwedRefund | null>;
}

export function createPaymentService(deps: CoreDeps): PaymentService {
  return {
    checkPayable: createCheckPayable(deps),
    confirmPayment: createConfirmPayment(deps),
    refundOrder: createRefundOrder(deps),
    recordTelegramRefund: createRecordTelegramRefund(deps),
    moneyExceptions: createMoneyExceptions(deps),
    owedRefund: (paymentId) => findOwedRefund(deps.db, paymentId),
    ...createRefundTracking(deps),
    ...createRefundActions(deps),
  };
}
