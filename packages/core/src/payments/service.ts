import type { CoreDeps } from "../deps.ts";
import { createCheckPayable } from "./check-payable.ts";
import { createConfirmPayment } from "./confirm-payment.ts";
import { createMoneyExceptions } from "./money-exceptions.ts";
import { findOwedRefund, type OwedRefund } from "./owed-refunds.ts";
import { createRefundActions } from "./refund-actions.ts";
import { createRefundOrder } from "./refund-order.ts";
import { createRefundTracking } from "./refund-tracking.ts";
import { createRecordTelegramRefund } from "./telegram-refund.ts";

export type PaymentService = ReturnType<typeof createPaymentService>;

export function createPaymentService(deps: CoreDeps) {
  return {
    /** pre_checkout_query: may this order be paid now? Answers within the deadline. */
    checkPayable: createCheckPayable(deps),
    /** successful_payment: recorded exactly once, applied to its order or put up for refund. */
    confirmPayment: createConfirmPayment(deps),
    /** An operator's /refund of a paid order (with a reason once its goods went out). */
    refundOrder: createRefundOrder(deps),
    /** refunded_payment: a refund Telegram reports, recorded once, its order moved on. */
    recordTelegramRefund: createRecordTelegramRefund(deps),
    /** What operators' /refunds shows: every money exception that needs a person, by section. */
    moneyExceptions: createMoneyExceptions(deps),
    /** One payment by its row id, if it is owed back. */
    owedRefund: (paymentId: number): Promise<OwedRefund | null> =>
      findOwedRefund(deps.db, paymentId),
    ...createRefundTracking(deps),
    ...createRefundActions(deps),
  };
}
