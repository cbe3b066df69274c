// Settling one delivery attempt by a conditional update on its claim: sent, retried later, or dead
// (with its alert to the operators). A settlement whose claim passed to another relay is dropped.
import type { Logger } from "@orderbot/platform";
import {
  markOutboxDead,
  markOutboxSent,
  rescheduleOutbox,
  type ClaimedMessage,
  type OutboxMessageInput,
} from "@orderbot/core/outbox";
import { migrateGroup } from "@orderbot/core/groups";
import { completeStarRefund } from "@orderbot/core/payments";
import type { ApiCall } from "./api-call.ts";
import type { Relay, RelaySummary } from "./relay.ts";
import { decide, policyFor, type Decision, type SendResult } from "./retry.ts";

/** Users who blocked the bot (403) are not the operators' business; they are counted, not reported. */
const FORBIDDEN = 403;

export async function settle(
  relay: Relay,
  message: ClaimedMessage,
  call: ApiCall | null,
  result: SendResult,
  summary: RelaySummary,
): Promise<void> {
  const { deps } = relay;
  const policy = policyFor(message.method, deps.policy);
  const decision = decide(result, message.attempts, policy, relay.random);
  const log = deps.logger.child({ outboxId: message.id, method: message.method });
  const kept =
    decision.action === "sent"
      ? await settleSent(relay, message, call, summary)
      : decision.action === "retry"
        ? await settleRetry(relay, message, result, decision, summary, log)
        : decision.action === "readdress"
          ? await settleMoved(relay, message, decision, summary)
          : await settleDead(relay, message, result, decision.error, summary, log);
  if (!kept) {
    summary.claimLost++;
    deps.metrics.outboxClaimLost.inc();
    log.warn("outbox claim had passed to another relay; its settlement was dropped");
  }
}

async function settleSent(
  relay: Relay,
  message: ClaimedMessage,
  call: ApiCall | null,
  summary: RelaySummary,
): Promise<boolean> {
  const { db, metrics } = relay.deps;
  let kept: boolean;
  if (call?.method === "refundStarPayment") {
    const chargeId = String(call.payload.telegram_payment_charge_id);
    const outcome = await completeStarRefund(db, message, chargeId);
    kept = outcome !== "claim-lost";
    if (outcome === "refunded") metrics.refundsCompleted.inc();
  } else {
    kept = await markOutboxSent(db, message);
  }
  if (kept) {
    // Booked when it left: a bot's reply sent here must not be learnt from the table again.
    relay.replies.add(message.id);
    summary.sent++;
    metrics.outboxSent.inc({ method: message.method });
  }
  return kept;
}

/**
 * The group became a supergroup: its binding and every message still addressed to the old id move
 * to the new one (core's `migrateGroup`, as when the bot hears of the upgrade), this one included,
 * which is sent again at once. The attempt does not count: the message was never wrong.
 */
async function settleMoved(
  relay: Relay,
  message: ClaimedMessage,
  decision: Extract<Decision, { action: "readdress" }>,
  summary: RelaySummary,
): Promise<boolean> {
  const { db, metrics } = relay.deps;
  await migrateGroup(db, { fromChatId: message.chatId, toChatId: decision.toChatId });
  const kept = await rescheduleOutbox(db, {
    source: message.source,
    id: message.id,
    claim: message.claim,
    delayMs: 0,
    counts: false,
    error: decision.error,
  });
  if (!kept) return false;
  summary.retried++;
  metrics.outboxRetries.inc({ reason: "moved" });
  return true;
}

async function settleRetry(
  relay: Relay,
  message: ClaimedMessage,
  result: SendResult,
  decision: Extract<Decision, { action: "retry" }>,
  summary: RelaySummary,
  log: Logger,
): Promise<boolean> {
  const { db, pacer, metrics } = relay.deps;
  if (result.kind === "rate-limited")
    pacer.blockUntil(message.chatId, relay.now() + decision.delayMs);
  const kept = await rescheduleOutbox(db, {
    source: message.source,
    id: message.id,
    claim: message.claim,
    delayMs: decision.delayMs,
    counts: decision.counts,
    error: decision.error,
  });
  if (!kept) return false;
  summary.retried++;
  metrics.outboxRetries.inc({
    reason: result.kind === "rate-limited" ? "rate_limited" : result.kind,
  });
  if (result.kind === "unauthorized")
    log.error(
      { error: decision.error },
      "Telegram refused the bot token: outbox messages wait until BOT_TOKEN is fixed",
    );
  else
    log.debug(
      { attempts: message.attempts, delayMs: decision.delayMs, error: decision.error },
      "outbox message will be retried",
    );
  return true;
}

async function settleDead(
  relay: Relay,
  message: ClaimedMessage,
  result: SendResult,
  error: string,
  summary: RelaySummary,
  log: Logger,
): Promise<boolean> {
  const kept = await markOutboxDead(relay.deps.db, {
    source: message.source,
    id: message.id,
    claim: message.claim,
    error,
    alerts: await deadLetterAlerts(relay, message, result, error),
  });
  if (!kept) return false;
  // A private chat's 403: the customer blocked the bot (or left Telegram). A group's id is negative.
  if (isForbidden(result) && message.chatId > 0n)
    await relay.deps.markUnreachable?.(message.chatId);
  summary.dead++;
  relay.deps.metrics.outboxDead.inc({ method: message.method });
  log.warn({ attempts: message.attempts, error }, "outbox message is dead (dead-letter state)");
  return true;
}

/**
 * The dead letter's alert, one per operator chat; for a message to an operator chat, which its
 * alert there would follow, one per owner in private instead. The claim is part of the key: a
 * refund an operator sent again (from /refunds) that Telegram refuses again is reported again.
 */
async function deadLetterAlerts(
  relay: Relay,
  message: ClaimedMessage,
  result: SendResult,
  error: string,
): Promise<OutboxMessageInput[]> {
  if (message.dedupeKey.startsWith("alert:")) return []; // no alert about an alert
  if (isForbidden(result)) return [];
  const operators = await relay.deps.operatorChats();
  // A message to an operator chat that failed for good would fail the same way as its alert.
  const chats = operators.includes(message.chatId) ? (relay.deps.ownerIds ?? []) : operators;
  return chats.map((chatId) => ({
    dedupeKey: `alert:dead:${deadId(message)}:${message.claim.replace(/\D/g, "")}:${chatId}`,
    chatId,
    method: "notify" as const,
    payload: {
      template: "operator-dead-letter" as const,
      params: {
        id: deadId(message),
        method: message.method,
        dedupeKey: message.dedupeKey,
        attempts: message.attempts,
        error,
      },
    },
  }));
}

function isForbidden(result: SendResult): boolean {
  return result.kind === "permanent" && result.code === FORBIDDEN;
}

/** A dead letter's number in its alert and key: a delivery's is told apart from a message's. */
function deadId(message: ClaimedMessage): string {
  return message.source === "delivery" ? `d${message.id}` : String(message.id);
}
