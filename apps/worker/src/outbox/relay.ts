import { setTimeout as delay } from "node:timers/promises";
import type { Database } from "@orderbot/db";
import type { Logger } from "@orderbot/platform";
import {
  claimDueOutbox,
  completeStarRefund,
  markOutboxDead,
  markOutboxSent,
  recentGroupReplies,
  recentSends,
  rescheduleOutbox,
  type ClaimedMessage,
  type OutboxMessageInput,
} from "@orderbot/core";
import type { WorkerMetrics } from "../metrics.ts";
import type { OperatorChats } from "../operators/chats.ts";
import { toApiCall, type ApiCall, type CallApi } from "./api-call.ts";
import { classify } from "./classify.ts";
import type { Pacer } from "./pacer.ts";
import { decide, policyFor, type RetryPolicy, type SendResult } from "./retry.ts";
import type { Locale } from "./templates.ts";

export interface RelayOptions {
  batchSize: number;
  claimMs: number;
  /** Messages whose pacing slot is further away than this go back to the table (ms). */
  horizonMs: number;
  locale: Locale;
}

export interface RelayDeps {
  db: Database;
  callApi: CallApi;
  /** Kept across runs: pacing must remember what the previous run sent. */
  pacer: Pacer;
  policy: RetryPolicy;
  options: RelayOptions;
  metrics: WorkerMetrics;
  logger: Logger;
  /**
   * Where dead letters are reported: every bound operator group and OPERATOR_GROUP_ID. None: only
   * logged and counted.
   */
  operatorChats: OperatorChats;
  now?: () => number;
  random?: () => number;
}

export interface RelaySummary {
  claimed: number;
  sent: number;
  retried: number;
  deferred: number;
  dead: number;
  claimLost: number;
}

export interface RelayRunContext {
  /** Stop before the next send: the lease was lost or the worker is stopping. */
  signal: AbortSignal;
  /** Lost lease only: then the claims are left to expire instead of being handed back. */
  leaseSignal: AbortSignal;
}

type SlotWait =
  { go: true; at: number } | { go: false; delayMs: number; reason: "paced" | "stopped" };

/** Users who blocked the bot (403) are not the operators' business; they are counted, not reported. */
const FORBIDDEN = 403;

/**
 * The outbox relay: claims due messages, sends each through the Bot API when the pacer allows,
 * and settles it by a conditional update on its claim (sent, retried later, or dead). Chats are
 * served side by side, each chat's messages one after another in id order.
 *
 * Delivery is at least once: a relay that crashes (or stalls past its claim) between a send and
 * its settlement leaves the message to be claimed and sent again, once per such crash. It is
 * marked SENT at most once: only the current claim's holder can mark it.
 */
export function createOutboxRelay(deps: RelayDeps) {
  const { db, pacer, options, metrics, logger } = deps;
  const now = deps.now ?? Date.now;
  const random = deps.random ?? Math.random;
  /** The bot's own group replies the pacer has booked (core/outbox/group-replies.ts). */
  let replies = new Set<number>();

  /** Books the replies the bots sent to groups since the last look: one budget per group. */
  async function learnReplies(): Promise<void> {
    const recent = await recentGroupReplies(db, 61_000);
    for (const reply of recent) {
      if (replies.has(reply.id)) continue;
      pacer.book(reply.chatId, reply.at);
      pacer.answered(reply.chatId, reply.at, reply.at);
    }
    replies = new Set(recent.map((r) => r.id));
  }

  /** Waits for the chat's next slot and books it: checking and booking with no await between. */
  async function takeSlot(
    chatId: bigint,
    deadline: number,
    ctx: RelayRunContext,
  ): Promise<SlotWait> {
    for (;;) {
      if (ctx.signal.aborted) return { go: false, delayMs: 0, reason: "stopped" };
      const t = now();
      const slot = pacer.nextSlot(chatId, t);
      if (slot <= t) {
        pacer.book(chatId, t);
        return { go: true, at: t };
      }
      if (slot > deadline) return { go: false, delayMs: slot - t, reason: "paced" };
      try {
        await delay(slot - t, undefined, { signal: ctx.signal, ref: false });
      } catch {
        // Aborted: the loop's first check reports it.
      }
    }
  }

  /**
   * The dead letter's alert, one per operator chat. The claim is part of the key: a refund an
   * operator sent again (from /refunds) that Telegram refuses again is reported again.
   */
  async function deadLetterAlerts(
    message: ClaimedMessage,
    result: SendResult,
    error: string,
  ): Promise<OutboxMessageInput[]> {
    if (message.dedupeKey.startsWith("alert:")) return []; // no alert about an alert
    if (result.kind === "permanent" && result.code === FORBIDDEN) return [];
    const chats = await deps.operatorChats();
    // A message to an operator chat that failed for good would fail the same way as its alert.
    if (chats.includes(message.chatId)) return [];
    return chats.map((chatId) => ({
      dedupeKey: `alert:dead:${message.id}:${message.claim.replace(/\D/g, "")}:${chatId}`,
      chatId,
      method: "notify" as const,
      payload: {
        template: "operator-dead-letter" as const,
        params: {
          id: message.id,
          method: message.method,
          dedupeKey: message.dedupeKey,
          attempts: message.attempts,
          error,
        },
      },
    }));
  }

  async function settle(
    message: ClaimedMessage,
    call: ApiCall | null,
    result: SendResult,
    summary: RelaySummary,
  ): Promise<void> {
    const decision = decide(
      result,
      message.attempts,
      policyFor(message.method, deps.policy),
      random,
    );
    const log = logger.child({ outboxId: message.id, method: message.method });
    let kept: boolean;
    if (decision.action === "sent") {
      if (call?.method === "refundStarPayment") {
        const outcome = await completeStarRefund(
          db,
          message,
          String(call.payload.telegram_payment_charge_id),
        );
        kept = outcome !== "claim-lost";
        if (outcome === "refunded") metrics.refundsCompleted.inc();
      } else {
        kept = await markOutboxSent(db, message);
      }
      if (kept) {
        summary.sent++;
        metrics.outboxSent.inc({ method: message.method });
      }
    } else if (decision.action === "retry") {
      if (result.kind === "rate-limited")
        pacer.blockUntil(message.chatId, now() + decision.delayMs);
      kept = await rescheduleOutbox(db, {
        id: message.id,
        claim: message.claim,
        delayMs: decision.delayMs,
        counts: decision.counts,
        error: decision.error,
      });
      if (kept) {
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
      }
    } else {
      kept = await markOutboxDead(db, {
        id: message.id,
        claim: message.claim,
        error: decision.error,
        alerts: await deadLetterAlerts(message, result, decision.error),
      });
      if (kept) {
        summary.dead++;
        metrics.outboxDead.inc({ method: message.method });
        log.warn(
          { attempts: message.attempts, error: decision.error },
          "outbox message is dead (dead-letter state)",
        );
      }
    }
    if (!kept) {
      summary.claimLost++;
      metrics.outboxClaimLost.inc();
      log.warn("outbox claim had passed to another relay; its settlement was dropped");
    }
  }

  /** Hands unsent messages back: due after `delayMs`, their claim's attempt not counted. */
  async function putBack(
    messages: ClaimedMessage[],
    delayMs: number,
    reason: "paced" | "released",
    summary: RelaySummary,
  ): Promise<void> {
    for (const message of messages) {
      if (
        await rescheduleOutbox(db, { id: message.id, claim: message.claim, delayMs, counts: false })
      ) {
        summary.deferred++;
        metrics.outboxRetries.inc({ reason });
      }
    }
  }

  async function deliverChat(
    messages: ClaimedMessage[],
    deadline: number,
    ctx: RelayRunContext,
    summary: RelaySummary,
  ): Promise<void> {
    for (const [i, message] of messages.entries()) {
      const wait = await takeSlot(message.chatId, deadline, ctx);
      if (!wait.go) {
        // A lost lease writes nothing more: its claims simply run out. A shutdown hands them back.
        if (wait.reason === "paced")
          await putBack(messages.slice(i), wait.delayMs, "paced", summary);
        else if (!ctx.leaseSignal.aborted) await putBack(messages.slice(i), 0, "released", summary);
        return;
      }
      let call: ApiCall | null = null;
      let result: SendResult;
      try {
        call = toApiCall(message, options.locale);
        await deps.callApi(call);
        result = { kind: "ok" };
      } catch (error) {
        result = classify(error);
      }
      pacer.answered(message.chatId, wait.at, now());
      await settle(message, call, result, summary);
    }
  }

  /** One round: claim a batch and deliver it. Returns how many were claimed. */
  async function round(ctx: RelayRunContext, summary: RelaySummary): Promise<number> {
    await learnReplies();
    const start = now();
    pacer.prune(start);
    const deadline = start + options.horizonMs;
    const claimed = await claimDueOutbox(db, {
      limit: options.batchSize,
      claimMs: options.claimMs,
      excludeChats: pacer.busyChats(start, deadline),
    });
    summary.claimed += claimed.length;
    const byChat = new Map<bigint, ClaimedMessage[]>();
    for (const message of claimed)
      byChat.set(message.chatId, [...(byChat.get(message.chatId) ?? []), message]);
    const results = await Promise.allSettled(
      [...byChat.values()].map((messages) => deliverChat(messages, deadline, ctx, summary)),
    );
    const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
    if (failed) throw failed.reason;
    return claimed.length;
  }

  return {
    /**
     * Teaches the pacer what was sent lately, from the table, in place of what it remembers: a new
     * leader must respect the limits its predecessors' sends started, and a process leading again
     * remembers only its own earlier term (another leader may have filled a group's minute since).
     */
    async warmUp(): Promise<number> {
      const sends = await recentSends(db, 61_000);
      replies = new Set((await recentGroupReplies(db, 61_000)).map((r) => r.id));
      pacer.forgetCalls();
      for (const send of sends) {
        pacer.book(send.chatId, send.at);
        pacer.answered(send.chatId, send.at, send.at);
      }
      return sends.length;
    },
    /** Rounds until nothing is due (for the chats the pacer has room for) or the signal aborts. */
    async drain(ctx: RelayRunContext): Promise<RelaySummary> {
      const summary: RelaySummary = {
        claimed: 0,
        sent: 0,
        retried: 0,
        deferred: 0,
        dead: 0,
        claimLost: 0,
      };
      while (!ctx.signal.aborted) {
        if ((await round(ctx, summary)) === 0) break;
      }
      return summary;
    },
  };
}

export type OutboxRelay = ReturnType<typeof createOutboxRelay>;
