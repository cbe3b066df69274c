// Opt-in flood control: Telegram answers 429 with retry_after when a bot sends too fast. Telegram
// publishes only rough numbers (about 1 message/s per chat, 20/min per group, 30/s overall), so
// these are sliding windows with those rates; pass your own to be stricter or looser.
import { type BotApiError, tooManyRequests } from "./errors.ts";
import { SENDING_METHODS } from "./recorder.ts";

export interface Window {
  limit: number;
  windowMs: number;
}

export interface FloodLimits {
  /** Per private chat. Default 3 per 3 s (about 1/s, short bursts allowed). */
  perChat?: Window;
  /** Per group or supergroup. Default 20 per minute. */
  perGroup?: Window;
  /** All chats together. Default 30 per second. */
  global?: Window;
}

const DEFAULTS: Required<FloodLimits> = {
  perChat: { limit: 3, windowMs: 3_000 },
  perGroup: { limit: 20, windowMs: 60_000 },
  global: { limit: 30, windowMs: 1_000 },
};

const COUNTED = new Set(SENDING_METHODS.map((m) => m.toLowerCase()));

export class FloodControl {
  private readonly limits: Required<FloodLimits>;
  private readonly sent = new Map<number, number[]>();
  private readonly all: number[] = [];

  constructor(limits: FloodLimits | true) {
    this.limits = { ...DEFAULTS, ...(limits === true ? {} : limits) };
  }

  /** A 429 if this sending call would go over a limit; otherwise counts it and returns undefined. */
  check(method: string, chatId: number | undefined, isGroup: boolean): BotApiError | undefined {
    if (chatId === undefined || !COUNTED.has(method.toLowerCase())) return undefined;
    const now = Date.now();
    const chatTimes = this.sent.get(chatId) ?? [];
    const chatWindow = isGroup ? this.limits.perGroup : this.limits.perChat;
    const wait = Math.max(
      waitFor(chatTimes, chatWindow, now),
      waitFor(this.all, this.limits.global, now),
    );
    if (wait > 0) return tooManyRequests(Math.max(1, Math.ceil(wait / 1000)));
    chatTimes.push(now);
    this.sent.set(chatId, chatTimes);
    this.all.push(now);
    return undefined;
  }
}

/** How long until one more send fits in the window (0: it fits now). Old entries are pruned. */
function waitFor(times: number[], window: Window, now: number): number {
  while (times.length > 0 && times[0]! <= now - window.windowMs) times.shift();
  if (times.length < window.limit) return 0;
  return times[times.length - window.limit]! + window.windowMs - now;
}
