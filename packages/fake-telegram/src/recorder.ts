// Every Bot API call the bot makes, with its time, arguments and answer; plus the counts a pacing
// test needs (calls per chat per second, the busiest window).
import { WaitTimeoutError } from "./errors.ts";

export interface RecordedCall {
  /** 1, 2, 3... in arrival order. */
  seq: number;
  /** When the call arrived (ms since the epoch). */
  at: number;
  /** The method as the bot spelled it. */
  method: string;
  params: Record<string, unknown>;
  /** The chat the call aims at (chat_id), when it has one. */
  chatId?: number;
  ok: boolean;
  result?: unknown;
  errorCode?: number;
  description?: string;
  /** An injected fault answered this call instead of the method ("lost": after it, unheard). */
  fault?: "429" | "500" | "404" | "hang" | "lost";
  durationMs: number;
  /** "http" for a request, "webhook-reply" for a method in a webhook response body. */
  via: "http" | "webhook-reply";
}

/** Methods that put a message in a chat: the ones Telegram's per-chat limits are about. */
export const SENDING_METHODS = [
  "sendMessage",
  "sendInvoice",
  "sendPhoto",
  "sendDocument",
  "sendAnimation",
  "sendVideo",
  "sendAudio",
  "sendVoice",
  "sendSticker",
  "sendMediaGroup",
  "sendLocation",
  "sendContact",
  "sendPoll",
  "sendDice",
  "copyMessage",
  "forwardMessage",
];

export interface PacingFilter {
  /** Count only these methods (default: SENDING_METHODS). Pass [] to count every method. */
  methods?: string[];
  /** Include calls answered with an error (default false: only calls that took effect). */
  includeFailed?: boolean;
}

export interface Pacing {
  calls: number;
  /** Calls per calendar second (epoch seconds), in order. */
  perSecond: { second: number; count: number }[];
  /** The most calls in any sliding 1-second window. */
  maxPerSecond: number;
  /** The most calls in any sliding 60-second window. */
  maxPerMinute: number;
}

type Listener = (call: RecordedCall) => void;

export class Recorder {
  readonly calls: RecordedCall[] = [];
  private readonly listeners = new Set<Listener>();

  add(call: Omit<RecordedCall, "seq">): RecordedCall {
    const recorded = { seq: this.calls.length + 1, ...call };
    this.calls.push(recorded);
    for (const listener of [...this.listeners]) listener(recorded);
    return recorded;
  }

  callsTo(method: string): RecordedCall[] {
    const name = method.toLowerCase();
    return this.calls.filter((c) => c.method.toLowerCase() === name);
  }

  /** Resolves with the first call (already made or coming) that matches. */
  waitForCall(
    method: string,
    predicate: (call: RecordedCall) => boolean = () => true,
    { timeoutMs = 5_000, afterSeq = 0 }: { timeoutMs?: number; afterSeq?: number } = {},
  ): Promise<RecordedCall> {
    const name = method.toLowerCase();
    const matches = (c: RecordedCall): boolean =>
      c.seq > afterSeq && c.method.toLowerCase() === name && predicate(c);
    const existing = this.calls.find(matches);
    if (existing) return Promise.resolve(existing);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.listeners.delete(listener);
        reject(
          new WaitTimeoutError(
            `a ${method} call`,
            timeoutMs,
            this.calls.slice(-10).map(describeCall),
          ),
        );
      }, timeoutMs);
      const listener: Listener = (call) => {
        if (!matches(call)) return;
        clearTimeout(timer);
        this.listeners.delete(listener);
        resolve(call);
      };
      this.listeners.add(listener);
    });
  }

  /** The calls that count for pacing, optionally for one chat. */
  select(chatId: number | undefined, filter: PacingFilter = {}): RecordedCall[] {
    const methods = (filter.methods ?? SENDING_METHODS).map((m) => m.toLowerCase());
    return this.calls.filter(
      (c) =>
        (chatId === undefined || c.chatId === chatId) &&
        (methods.length === 0 || methods.includes(c.method.toLowerCase())) &&
        (filter.includeFailed || c.ok),
    );
  }

  pacing(chatId: number | undefined, filter: PacingFilter = {}): Pacing {
    const calls = this.select(chatId, filter);
    const buckets = new Map<number, number>();
    for (const call of calls) {
      const second = Math.floor(call.at / 1000);
      buckets.set(second, (buckets.get(second) ?? 0) + 1);
    }
    const times = calls.map((c) => c.at);
    return {
      calls: calls.length,
      perSecond: [...buckets].map(([second, count]) => ({ second, count })),
      maxPerSecond: maxInWindow(times, 1_000),
      maxPerMinute: maxInWindow(times, 60_000),
    };
  }
}

/** The most timestamps inside any window [t, t + windowMs). */
export function maxInWindow(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end++) {
    while (sorted[end]! - sorted[start]! >= windowMs) start++;
    best = Math.max(best, end - start + 1);
  }
  return best;
}

export function describeCall(call: RecordedCall): string {
  const outcome = call.ok ? "ok" : `${call.errorCode} ${call.description}`;
  return `#${call.seq} ${call.method}${call.chatId !== undefined ? ` chat ${call.chatId}` : ""} -> ${outcome}`;
}
