/**
 * Telegram's sending limits as a small, pure scheduler: about one message a second per chat, at
 * most 20 a minute per group, and a global cap. Time is passed in, never read, so the rules can be
 * tested exhaustively and the relay decides when to sleep.
 *
 * Every limit carries a safety margin: the limits are measured where Telegram receives the calls,
 * and a call scheduled exactly on the limit can arrive a little early relative to the previous
 * one (that one was delayed in transit). The margin absorbs that jitter.
 */
export interface PacingLimits {
  /** Least gap between two messages to one chat (ms); Telegram: about 1,000. */
  chatIntervalMs: number;
  /** Messages a group may receive per window; Telegram: 20 per minute. */
  groupPerWindow: number;
  groupWindowMs: number;
  /** Messages per second across all chats; Telegram: about 30. */
  globalPerSecond: number;
  /** Added to every interval and window (ms). */
  marginMs: number;
}

export const TELEGRAM_LIMITS = {
  chatIntervalMs: 1000,
  groupPerWindow: 20,
  groupWindowMs: 60_000,
} as const;

/** Groups and channels have negative chat ids; users' private chats positive ones. */
export function isGroupChat(chatId: bigint): boolean {
  return chatId < 0n;
}

export interface Pacer {
  /** The earliest time, not before `now`, at which a message to `chatId` may be sent. */
  nextSlot(chatId: bigint, now: number): number;
  /** Records a send to `chatId` at `at` (the moment the call starts). */
  book(chatId: bigint, at: number): void;
  /**
   * The call booked at `bookedAt` got its answer at `at`: the chat's limits count from then on.
   * Telegram handled the call somewhere in between, so counting from the answer keeps the gaps
   * Telegram sees at least as long as the interval, however slow the request was in transit.
   */
  answered(chatId: bigint, bookedAt: number, at: number): void;
  /** No message to `chatId` before `until` (a 429's retry_after). */
  blockUntil(chatId: bigint, until: number): void;
  /** Whether the pacer remembers anything about the chat. */
  knows(chatId: bigint): boolean;
  /** Chats whose next slot is later than `horizon`: leave their messages unclaimed for now. */
  busyChats(now: number, horizon: number): bigint[];
  /** Forgets what no longer constrains anything sent at or after `now`. */
  prune(now: number): void;
}

interface ChatState {
  /** Send times, ascending (the relay sends to one chat strictly one after another). */
  sent: number[];
  blockedUntil: number;
}

export function createPacer(limits: PacingLimits): Pacer {
  const chats = new Map<bigint, ChatState>();
  /** Global send times, ascending; spacing them evenly caps every one-second window. */
  const global: number[] = [];
  const globalSpacing = (1000 + limits.marginMs) / limits.globalPerSecond;
  const chatInterval = limits.chatIntervalMs + limits.marginMs;
  const groupWindow = limits.groupWindowMs + limits.marginMs;

  const state = (chatId: bigint): ChatState => {
    let s = chats.get(chatId);
    if (!s) {
      s = { sent: [], blockedUntil: 0 };
      chats.set(chatId, s);
    }
    return s;
  };

  /** The earliest t >= from that keeps `globalSpacing` from every booked global send. */
  const globalSlot = (from: number): number => {
    let t = from;
    for (const x of global) {
      if (x + globalSpacing <= t) continue;
      if (x - globalSpacing >= t) break;
      t = x + globalSpacing;
    }
    return t;
  };

  const chatSlot = (chatId: bigint, now: number): number => {
    const s = chats.get(chatId);
    if (!s) return now;
    let t = Math.max(now, s.blockedUntil);
    const last = s.sent.at(-1);
    if (last !== undefined) t = Math.max(t, last + chatInterval);
    if (isGroupChat(chatId) && s.sent.length >= limits.groupPerWindow) {
      // The window ending at t may hold at most groupPerWindow - 1 earlier sends.
      const oldestInWindow = s.sent[s.sent.length - limits.groupPerWindow]!;
      t = Math.max(t, oldestInWindow + groupWindow);
    }
    return t;
  };

  return {
    nextSlot(chatId, now) {
      // Chat constraints only push later; the global one may skip over booked sends. Repeat until
      // both agree (the chat constraints are monotonic, so this settles in a step or two).
      let t = chatSlot(chatId, now);
      for (;;) {
        const g = globalSlot(t);
        if (g === t) return t;
        t = chatSlot(chatId, g);
      }
    },
    book(chatId, at) {
      const s = state(chatId);
      s.sent.push(at);
      let i = global.length;
      while (i > 0 && global[i - 1]! > at) i--;
      global.splice(i, 0, at);
    },
    answered(chatId, bookedAt, at) {
      const sent = chats.get(chatId)?.sent;
      if (sent && sent.at(-1) === bookedAt && at > bookedAt) sent[sent.length - 1] = at;
    },
    blockUntil(chatId, until) {
      const s = state(chatId);
      s.blockedUntil = Math.max(s.blockedUntil, until);
    },
    knows(chatId) {
      return chats.has(chatId);
    },
    busyChats(now, horizon) {
      const busy: bigint[] = [];
      for (const chatId of chats.keys()) if (chatSlot(chatId, now) > horizon) busy.push(chatId);
      return busy;
    },
    prune(now) {
      while (global.length > 0 && global[0]! + globalSpacing <= now) global.shift();
      for (const [chatId, s] of chats) {
        const keep = isGroupChat(chatId) ? groupWindow : chatInterval;
        while (s.sent.length > 0 && s.sent[0]! + keep <= now) s.sent.shift();
        if (s.sent.length === 0 && s.blockedUntil <= now) chats.delete(chatId);
      }
    },
  };
}
