// @orderbot/core/payments: invoices, pre-checkout, payments, refunds and the Stars ledger.
export {
  checkInvoiceAmount,
  INVOICE_LIMITS,
  type InvoiceAmountCheck,
  type InvoiceAmountRefusal,
  type InvoiceLimit,
} from "./invoice-limits.ts";
export { createPaymentService, type PaymentService } from "./service.ts";
export type { CheckPayableInput, CheckPayableResult, PayRefusal } from "./check-payable.ts";
export type { ConfirmPaymentInput, ConfirmPaymentResult } from "./confirm-payment.ts";
export { paymentNoticeKey } from "./paid-notices.ts";
export {
  invoicePayload,
  newInvoiceNonce,
  parseInvoicePayload,
  type InvoicePayload,
} from "./invoice-payload.ts";
export type { RefundOrderOptions, RefundOrderResult } from "./refund-order.ts";
export { AUTO_REFUND_CURRENCY, type RefundReason } from "./refund-queue.ts";
// Refunds that need a person (/refunds) and refunds Telegram reports (refunded_payment).
export type { LedgerFindingsSection, MoneyExceptions, MoneySection } from "./money-exceptions.ts";
export type { OwedRefund, OwedRefundState } from "./owed-refunds.ts";
export {
  REFUND_NOTE_MAX,
  type MarkRefundedResult,
  type NotOwed,
  type PaymentRef,
  type RetryRefundResult,
} from "./refund-actions.ts";
export {
  telegramRefundAlertKey,
  type TelegramRefundInput,
  type TelegramRefundResult,
} from "./telegram-refund.ts";
// Reconciliation with Telegram's Stars ledger (getStarTransactions).
export {
  createStarReconciliation,
  type ReconcileOptions,
  type ReconcileResult,
  type StarReconciliation,
} from "./reconciliation/service.ts";
export {
  FINDING_KINDS,
  FINDING_NOTE_MAX,
  openFindingCount,
  type FindingKind,
  type LedgerFinding,
  type ResolveFindingResult,
} from "./reconciliation/findings.ts";
export {
  LEDGER_PAGE_SIZE,
  type FetchLedgerPage,
  type LedgerTransaction,
} from "./reconciliation/ledger.ts";
export { findingAlertKey } from "./reconciliation/alerts.ts";
// Refunds still pending, for the worker's refunds job and backlog gauges.
export {
  STARS,
  starRefundKey,
  refundAlertKey,
  completeStarRefund,
  starRefundsWithoutCall,
  manualRefundsNotAlerted,
  oldestRefundPendingAgeSeconds,
  type CompleteRefundOutcome,
  type PendingRefund,
} from "./pending-refunds.ts";
// Whether an order may be paid now, and its invoice's terms, for every way in.
export {
  invoiceFor,
  type InvoiceAsks,
  type InvoiceForResult,
  type InvoiceRefusal,
  type InvoiceSettings,
  type InvoiceTerms,
} from "./invoice-for.ts";
