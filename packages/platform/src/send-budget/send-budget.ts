import { randomBytes } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import type { ScriptClient } from "./script-client.ts";
import type { SendBudgetMetrics } from "./metrics.ts";
import { answeredScript, pauseScript, takeScript } from "./take-script.ts";

/** 0: a reply to the customer's own action; 1: an order's notice; 2: a bulk send. */
export type SendPriority = 0 | 1 | 2;
export const SEND_PRIORITY = { reply: 0, notice: 1, bulk: 2 } as const;

export interface SendLimits {
  /** Messages a second across all chats (TELEGRAM_SEND_PER_SECOND; Telegram: about 30). */
  perSecond: number;
  /**
   * Messages a private chat may receive per window: Telegram asks for about one a second and lets
   * short bursts through, so 3 per 3 s, as the fake enforces (a reply may be two messages).
   */
  chatPerWindow: number;
  chatWindowMs: number;
  /** Messages a group may receive per window; Telegram: 20 a minute. */
  groupPerWindow: number;
  groupWindowMs: number;
  /** Added to every window: a call reaches Telegram a little after it takes its place (ms). */
  marginMs: number;
}

export const TELEGRAM_SEND_LIMITS: SendLimits = {
  perSecond: 30,
  chatPerWindow: 3,
  chatWindowMs: 3000,
  groupPerWindow: 20,
  groupWindowMs: 60_000,
  marginMs: 100,
};

/** A taken place: hand it back to `answered` once the call has its answer. */
export interface Place {
  keys: string[];
  member: string;
}

export type TakeResult =
  | { kind: "taken"; waitedMs: number; place: Place }
  /** Not within `maxWaitMs`: the budget has room again after `waitMs`. */
  | { kind: "later"; waitMs: number; reason: string }
  /** Redis did not answer: the caller applies its own fallback (docs/worker.md). */
  | { kind: "unavailable"; error: unknown }
  | { kind: "aborted" };

export interface TakeOptions {
  /** Give up (kind "later") rather than wait longer than this (ms). */
  maxWaitMs: number;
  signal?: AbortSignal;
}

export interface SendBudgetDeps {
  redis: ScriptClient;
  /** The bot's id (the token's part before ":"): never the token itself. */
  botId: string;
  /** Prefix of every key, e.g. the deployment's namespace. */
  prefix: string;
  limits: SendLimits;
  /** The longest a call can be in flight (its deadline): its place is held that long unanswered. */
  inFlightMs: number;
  metrics?: SendBudgetMetrics;
}

export type SendBudget = ReturnType<typeof createSendBudget>;

/**
 * One bot's sending budget, shared through Redis by every bot and worker instance: the bot's rate,
 * each chat's and each group's, and a pause after a 429. A lower priority takes only what the
 * higher ones leave: priority p may fill the bot's second only up to `perSecond - p * reserve`.
 *
 * @example
 * const taken = await budget.take(chatId, SEND_PRIORITY.reply, { maxWaitMs: 5_000 });
 * if (taken.kind === "taken") await api.sendMessage(chatId, "hi").finally(() => budget.answered(taken.place));
 */
export function createSendBudget(deps: SendBudgetDeps) {
  const base = `${deps.prefix}:send-budget:{${deps.botId}}`;
  return {
    take: (chatId: ChatRef, priority: SendPriority, options: TakeOptions) =>
      take(deps, base, chatId, priority, options),
    /** The call that took `place` was answered (or failed): its windows count from now. */
    async answered(place: Place): Promise<void> {
      await answeredScript.run(deps.redis, place.keys, [place.member]);
    },
    /** Pauses every sender of the bot for `ms` (a 429's retry_after), never shortening a pause. */
    async pause(ms: number): Promise<void> {
      deps.metrics?.pauses.inc();
      await pauseScript.run(deps.redis, [`${base}:pause`], [Math.max(1, Math.ceil(ms))]);
    },
  };
}

type ChatRef = bigint | number | string;

/** Groups and channels: a negative id or a @username; private chats have positive ids. */
const isGroup = (chatId: ChatRef) => typeof chatId === "string" || chatId < 0;

/** What priority `p` may fill of the bot's second: replies all of it, each level below less. */
export function globalLimitFor(perSecond: number, priority: SendPriority): number {
  const reserve = Math.max(1, Math.round(perSecond / 10));
  return Math.max(1, Math.floor(perSecond) - priority * reserve);
}

/** One atomic attempt: {taken} or how long until there is room. */
async function tryTake(
  deps: SendBudgetDeps,
  base: string,
  chatId: ChatRef,
  priority: SendPriority,
): Promise<{ taken: true; place: Place } | { taken: false; waitMs: number; reason: string }> {
  const { limits } = deps;
  const group = isGroup(chatId);
  const keys = [`${base}:pause`, `${base}:global`, `${base}:chat:${String(chatId)}`];
  const member = randomBytes(8).toString("hex");
  const args = [
    member,
    globalLimitFor(limits.perSecond, priority),
    1000 + limits.marginMs,
    group ? limits.groupPerWindow : limits.chatPerWindow,
    (group ? limits.groupWindowMs : limits.chatWindowMs) + limits.marginMs,
    Math.max(0, Math.ceil(deps.inFlightMs)),
  ];
  const [ok, waitMs, reason] = (await takeScript.run(deps.redis, keys, args)) as [
    number,
    number,
    string?,
  ];
  if (ok === 1) return { taken: true, place: { keys: keys.slice(1), member } };
  return { taken: false, waitMs, reason: reason ?? "budget" };
}

/** Takes a place, waiting while the wait fits in `maxWaitMs`. */
async function take(
  deps: SendBudgetDeps,
  base: string,
  chatId: ChatRef,
  priority: SendPriority,
  options: TakeOptions,
): Promise<TakeResult> {
  const start = Date.now();
  const result = await waitForPlace(deps, base, chatId, priority, options, start);
  const labels = { priority: String(priority), outcome: result.kind };
  deps.metrics?.takes.inc(labels);
  if (result.kind === "taken")
    deps.metrics?.waitSeconds.observe({ priority: labels.priority }, result.waitedMs / 1000);
  return result;
}

async function waitForPlace(
  deps: SendBudgetDeps,
  base: string,
  chatId: ChatRef,
  priority: SendPriority,
  { maxWaitMs, signal }: TakeOptions,
  start: number,
): Promise<TakeResult> {
  for (;;) {
    if (signal?.aborted) return { kind: "aborted" };
    let attempt;
    try {
      attempt = await tryTake(deps, base, chatId, priority);
    } catch (error) {
      return { kind: "unavailable", error };
    }
    if (attempt.taken) return { kind: "taken", waitedMs: Date.now() - start, place: attempt.place };
    const left = start + maxWaitMs - Date.now();
    if (attempt.waitMs > left) return { kind: "later", ...attempt };
    try {
      await delay(attempt.waitMs, undefined, { signal, ref: false });
    } catch {
      // Aborted: the loop's first check reports it.
    }
  }
}
