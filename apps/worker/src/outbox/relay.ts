import { setTimeout as delay } from "node:timers/promises";
import type { OrderView } from "@orderbot/core";
import type { ShippingOption } from "@orderbot/core/shipping";
import {
  CARD_TEMPLATE,
  ORDER_TEMPLATES,
  recipientLanguages,
  type Locale,
  type OrderMessages,
} from "@orderbot/conversation";
import type { Database } from "@orderbot/db";
import { expandEvents } from "@orderbot/core/events";
import type { Logger } from "@orderbot/platform";
import {
  claimDueOutbox,
  recentGroupReplies,
  recentSends,
  rescheduleOutbox,
  type ClaimedMessage,
} from "@orderbot/core/outbox";
import type { WorkerMetrics } from "../metrics.ts";
import type { OperatorChats } from "../operators/chats.ts";
import {
  noticeOf,
  orderOf,
  toApiCall,
  type ApiCall,
  type CallApi,
  type RenderContext,
} from "./api-call.ts";
import { classify } from "./classify.ts";
import type { Pacer } from "./pacer.ts";
import type { RetryPolicy, SendResult } from "./retry.ts";
import { settle } from "./settle.ts";

export interface RelayOptions {
  batchSize: number;
  claimMs: number;
  /** Messages whose pacing slot is further away than this go back to the table (ms). */
  horizonMs: number;
  /** NOTIFY_LOCALE: the language of a chat the shop knows nothing of. */
  locale: Locale;
  /** SHIPPING_OPTIONS: their titles, in a paid order's alert. */
  shippingOptions: readonly ShippingOption[];
  /** OPERATOR_GROUP_ID: the recipient rule's chat while no group is bound. */
  fallbackChat?: bigint;
}

/** Recipients an event is expanded to per statement, and statements per round. */
const EXPANSION = { batchSize: 1_000, maxBatches: 10 };

export interface RelayDeps {
  db: Database;
  /** core's `orders.get`: a paid order's items and shipping, read when its alert is sent. */
  readOrder: (publicId: string) => Promise<OrderView | null>;
  /** The messages showing an order: the card an `order-card` row edits, the invoice to void. */
  orderMessages: Pick<OrderMessages, "of">;
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
  /** core's `customers.markUnreachable`: a private chat that refuses the bot (403) marks its customer. */
  markUnreachable?: (userId: bigint) => Promise<unknown>;
  /** OWNER_IDS: told in private when a message to an operator chat dies (its alert would too). */
  ownerIds?: readonly bigint[];
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

/** A relay's dependencies and what it keeps between runs. */
export interface Relay {
  deps: RelayDeps;
  now: () => number;
  random: () => number;
  /** Group replies the pacer has booked: the bots' own (core/outbox/group-replies.ts), and those sent here. */
  replies: Set<number>;
}

export interface OutboxRelay {
  /**
   * Teaches the pacer what was sent lately, from the table, in place of what it remembers: a new
   * leader must respect the limits its predecessors' sends started, and a process leading again
   * remembers only its own earlier term (another leader may have filled a group's minute since).
   */
  warmUp(): Promise<number>;
  /** Rounds until nothing is due (for the chats the pacer has room for) or the signal aborts. */
  drain(ctx: RelayRunContext): Promise<RelaySummary>;
}

/**
 * The outbox relay: claims due messages, sends each through the Bot API when the pacer allows,
 * and settles it by a conditional update on its claim (sent, retried later, or dead). Chats are
 * served side by side, each chat's messages one after another in id order.
 *
 * Delivery is at least once: a relay that crashes (or stalls past its claim) between a send and
 * its settlement leaves the message to be claimed and sent again, once per such crash. It is
 * marked SENT at most once: only the current claim's holder can mark it.
 */
export function createOutboxRelay(deps: RelayDeps): OutboxRelay {
  const relay: Relay = {
    deps,
    now: deps.now ?? Date.now,
    random: deps.random ?? Math.random,
    replies: new Set(),
  };
  return { warmUp: () => warmUp(relay), drain: (ctx) => drain(relay, ctx) };
}

async function warmUp(relay: Relay): Promise<number> {
  const { db, pacer } = relay.deps;
  const sends = await recentSends(db, 61_000);
  relay.replies = new Set((await recentGroupReplies(db, 61_000)).map((r) => r.id));
  pacer.forgetCalls();
  for (const send of sends) {
    pacer.book(send.chatId, send.at);
    pacer.answered(send.chatId, send.at, send.at);
  }
  return sends.length;
}

async function drain(relay: Relay, ctx: RelayRunContext): Promise<RelaySummary> {
  const summary: RelaySummary = {
    claimed: 0,
    sent: 0,
    retried: 0,
    deferred: 0,
    dead: 0,
    claimLost: 0,
  };
  while (!ctx.signal.aborted) {
    if ((await round(relay, ctx, summary)) === 0) break;
  }
  return summary;
}

/** Books the replies the bots sent to groups since the last look: one budget per group. */
async function learnReplies(relay: Relay): Promise<void> {
  const recent = await recentGroupReplies(relay.deps.db, 61_000);
  for (const reply of recent) {
    if (relay.replies.has(reply.id)) continue;
    relay.deps.pacer.book(reply.chatId, reply.at);
    relay.deps.pacer.answered(reply.chatId, reply.at, reply.at);
  }
  relay.replies = new Set(recent.map((r) => r.id));
}

/** Waits for the chat's next slot and books it: checking and booking with no await between. */
async function takeSlot(
  relay: Relay,
  chatId: bigint,
  deadline: number,
  ctx: RelayRunContext,
): Promise<SlotWait> {
  const { pacer } = relay.deps;
  for (;;) {
    if (ctx.signal.aborted) return { go: false, delayMs: 0, reason: "stopped" };
    const t = relay.now();
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

/** Hands unsent messages back: due after `delayMs`, their claim's attempt not counted. */
async function putBack(
  relay: Relay,
  messages: ClaimedMessage[],
  delayMs: number,
  reason: "paced" | "released",
  summary: RelaySummary,
): Promise<void> {
  for (const message of messages) {
    const { source, id } = message;
    const claim = { source, id, claim: message.claim, delayMs, counts: false };
    if (await rescheduleOutbox(relay.deps.db, claim)) {
      summary.deferred++;
      relay.deps.metrics.outboxRetries.inc({ reason });
    }
  }
}

/**
 * What a row is rendered with: its chat's language; the order, when its text lists it; the
 * messages showing the order, when the row edits or deletes one of them.
 */
async function renderContext(
  relay: Relay,
  message: ClaimedMessage,
  locale: Locale,
): Promise<RenderContext> {
  const { deps } = relay;
  const template = noticeOf(message)?.template;
  const orderId = orderOf(message);
  if (orderId === undefined) return { locale };
  const context: RenderContext = { locale };
  if (template !== undefined && ORDER_TEMPLATES.has(template))
    context.facts = {
      order: await deps.readOrder(orderId),
      shippingOptions: deps.options.shippingOptions,
    };
  if (template === CARD_TEMPLATE || message.method === "voidInvoice")
    context.messages = await deps.orderMessages.of(orderId);
  return context;
}

/** A row's call, composed before it takes a pacing slot; an error is settled like a failed send. */
async function compose(
  relay: Relay,
  message: ClaimedMessage,
  locale: Locale,
): Promise<{ call: ApiCall | null; error?: unknown }> {
  try {
    return { call: toApiCall(message, await renderContext(relay, message, locale)) };
  } catch (error) {
    return { call: null, error };
  }
}

async function deliverChat(
  relay: Relay,
  messages: ClaimedMessage[],
  locale: Locale,
  deadline: number,
  ctx: RelayRunContext,
  summary: RelaySummary,
): Promise<void> {
  const { deps } = relay;
  for (const [i, message] of messages.entries()) {
    const { call, error } = await compose(relay, message, locale);
    // Nothing to send (no card shows the order, no invoice is live): done, without a slot.
    if (call === null && error === undefined) {
      await settle(relay, message, null, { kind: "ok" }, summary);
      continue;
    }
    const wait = await takeSlot(relay, message.chatId, deadline, ctx);
    if (!wait.go) {
      // A lost lease writes nothing more: its claims simply run out. A shutdown hands them back.
      if (wait.reason === "paced")
        await putBack(relay, messages.slice(i), wait.delayMs, "paced", summary);
      else if (!ctx.leaseSignal.aborted)
        await putBack(relay, messages.slice(i), 0, "released", summary);
      return;
    }
    let result: SendResult = error === undefined ? { kind: "ok" } : classify(error);
    if (call !== null)
      result = await deps.callApi(call).then(
        (): SendResult => ({ kind: "ok" }),
        (failure: unknown) => classify(failure),
      );
    deps.pacer.answered(message.chatId, wait.at, relay.now());
    await settle(relay, message, call, result, summary);
  }
}

/** One round: claim a batch and deliver it. Returns how many were claimed. */
async function round(relay: Relay, ctx: RelayRunContext, summary: RelaySummary): Promise<number> {
  const { db, pacer, options } = relay.deps;
  await learnReplies(relay);
  const start = relay.now();
  pacer.prune(start);
  const deadline = start + options.horizonMs;
  // Events into deliveries first: a delivery is claimed like any message from then on.
  await expandEvents(db, { ...EXPANSION, fallbackChat: options.fallbackChat });
  const claimed = await claimDueOutbox(db, {
    limit: options.batchSize,
    claimMs: options.claimMs,
    excludeChats: pacer.busyChats(start, deadline),
  });
  summary.claimed += claimed.length;
  const byChat = new Map<bigint, ClaimedMessage[]>();
  for (const message of claimed)
    byChat.set(message.chatId, [...(byChat.get(message.chatId) ?? []), message]);
  // Each chat's language as it is now, in one query for the batch.
  const languageOf = await recipientLanguages(db, [...byChat.keys()], options.locale);
  const results = await Promise.allSettled(
    [...byChat].map(([chatId, messages]) =>
      deliverChat(relay, messages, languageOf(chatId), deadline, ctx, summary),
    ),
  );
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
  return claimed.length;
}
