// @orderbot/core/outbox: the transactional outbox: queueing, claiming and settling messages.
export { createOutboxService, type OutboxService } from "./service.ts";
export {
  enqueueOutbox,
  type OutboxMessageInput,
  type NotificationTemplate,
  type NotifyPayload,
  type RefundStarPaymentPayload,
} from "./messages.ts";
// The relay's side of the outbox: claiming due messages and settling them. The worker's jobs call
// these; they never touch Prisma themselves.
export { claimDueOutbox } from "./batch.ts";
export type { Source } from "./sources.ts";
export {
  markOutboxSent,
  rescheduleOutbox,
  markOutboxDead,
  type ClaimedMessage,
  type ClaimOptions,
  type ClaimRef,
  type RescheduleOptions,
  type DeadOptions,
} from "./claims.ts";
export { outboxStats, outboxHas, recentSends, type OutboxStats } from "./backlog.ts";
// Retention: sent messages are deleted after a while, dead letters kept (see retention.ts).
export { pruneDeliveredEvents, pruneSentOutbox } from "./retention.ts";
export {
  confirmGroupReply,
  queueGroupReply,
  recentGroupReplies,
  reserveGroupReply,
  type GroupReplyDecision,
  type GroupReplyInput,
} from "./group-replies.ts";
