// Database operations the worker's jobs need beyond the order services: claiming and settling
// outbox messages, refunds, operator-group admin caches and the daily report. Jobs call these;
// they never touch Prisma themselves.
export type { Sql } from "./sql.ts";
// The one way to queue outbox messages, the same function core's services use.
export {
  enqueueOutbox,
  type OutboxMessageInput,
  type NotificationTemplate,
} from "../outbox/messages.ts";
export {
  claimDueOutbox,
  markOutboxSent,
  rescheduleOutbox,
  markOutboxDead,
  outboxStats,
  outboxHas,
  recentSends,
  type ClaimedMessage,
  type ClaimOptions,
  type ClaimRef,
  type RescheduleOptions,
  type DeadOptions,
  type OutboxStats,
} from "./outbox.ts";
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
} from "./refunds.ts";
export { saveGroupAdmins, listOperatorGroups, type OperatorGroupRef } from "./admins.ts";
export { buildDailyReport, type DailyReport } from "./report.ts";
