/**
 * Telegram's sending limits as a small, pure scheduler: about one message a second per chat, at
 * most 20 a minute per group, and a global cap per second. Time is passed in, never read, so the
 * rules can be tested exhaustively and the relay decides when to sleep.
 *
 * The limits hold where Telegram receives the calls, whatever the latency. Telegram handles a call
 * somewhere between the moment it leaves and the moment its answer comes back, so every rule
 * counts from answers: the next message to a chat leaves an interval after the previous one was
 * answered, and the k-th next message (k = the limit of a window) leaves a window after it was
 * answered. If k + 1 calls were received within one window, the earliest-sent of them would have
 * been answered a whole window before the latest-sent one left: impossible. A margin is added on
 * top, for clocks and rounding.
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
  /**
   * The earliest time, not before `now`, at which a message to `chatId` may leave. While a call it
   * depends on is still unanswered this is only an estimate: sleep until then and ask again.
   */
  nextSlot(chatId: bigint, now: number): number;
  /** Records a call to `chatId` leaving at `at`. */
  book(chatId: bigint, at: number): void;
  /** The call booked at `bookedAt` got its answer (or failed) at `at`. */
  answered(chatId: bigint, bookedAt: number, at: number): void;
  /** No message to `chatId` before `until` (a 429's retry_after). */
  blockUntil(chatId: bigint, until: number): void;
  /** Whether the pacer remembers anything about the chat. */
  knows(chatId: bigint): boolean;
  /** Chats whose next slot is later than `horizon`: leave their messages unclaimed for now. */
  busyChats(now: number, horizon: number): bigint[];
  /** Forgets what no longer constrains anything sent at or after `now`. */
  prune(now: number): void;
  /**
   * Forgets every call, keeping what a 429 blocked: a leader beginning a term relearns the calls
   * from the outbox table, which has every leader's, its own earlier ones included.
   */
  forgetCalls(): void;
}

interface Call {
  chatId: bigint;
  sentAt: number;
  /** When it was answered; null while in flight. */
  answeredAt: number | null;
}

interface ChatState {
  /** Calls in the order they left (the relay sends to one chat strictly one after another). */
  calls: Call[];
  blockedUntil: number;
}

/** How often to look again while a call the next slot depends on is still in flight (ms). */
const RECHECK_MS = 25;

/** What the pacer remembers, and its limits with the margin added. */
interface PacerState {
  limits: PacingLimits;
  chats: Map<bigint, ChatState>;
  /** Every call, in the order they left. */
  global: Call[];
  chatInterval: number;
  groupWindow: number;
  globalWindow: number;
  globalLimit: number;
}

export function createPacer(limits: PacingLimits): Pacer {
  const p: PacerState = {
    limits,
    chats: new Map(),
    global: [],
    chatInterval: limits.chatIntervalMs + limits.marginMs,
    groupWindow: limits.groupWindowMs + limits.marginMs,
    globalWindow: 1000 + limits.marginMs,
    globalLimit: Math.max(1, Math.floor(limits.globalPerSecond)),
  };
  return {
    nextSlot(chatId, now) {
      const t = chatSlot(p, chatId, now);
      return Math.max(t, after(p.global.at(-p.globalLimit), p.globalWindow, t));
    },
    book: (chatId, at) => book(p, chatId, at),
    answered(chatId, bookedAt, at) {
      const call = p.chats
        .get(chatId)
        ?.calls.findLast((c) => c.sentAt === bookedAt && c.answeredAt === null);
      if (call) call.answeredAt = Math.max(at, bookedAt);
    },
    blockUntil(chatId, until) {
      const s = chatState(p, chatId);
      s.blockedUntil = Math.max(s.blockedUntil, until);
    },
    knows: (chatId) => p.chats.has(chatId),
    busyChats(now, horizon) {
      const busy: bigint[] = [];
      for (const chatId of p.chats.keys())
        if (chatSlot(p, chatId, now) > horizon) busy.push(chatId);
      return busy;
    },
    forgetCalls() {
      p.global.length = 0;
      for (const [chatId, s] of p.chats) {
        s.calls = [];
        if (s.blockedUntil === 0) p.chats.delete(chatId);
      }
    },
    prune: (now) => prune(p, now),
  };
}

/** The earliest time a call may leave `after` the given earlier call was answered. */
function after(call: Call | undefined, gapMs: number, now: number): number {
  if (!call) return now;
  if (call.answeredAt !== null) return Math.max(now, call.answeredAt + gapMs);
  return Math.max(now + RECHECK_MS, call.sentAt + gapMs);
}

/** The chat's own next slot: its block, its interval and, for a group, its window. */
function chatSlot(p: PacerState, chatId: bigint, now: number): number {
  const s = p.chats.get(chatId);
  if (!s) return now;
  let t = Math.max(now, s.blockedUntil);
  t = Math.max(t, after(s.calls.at(-1), p.chatInterval, t));
  if (isGroupChat(chatId))
    t = Math.max(t, after(s.calls.at(-p.limits.groupPerWindow), p.groupWindow, t));
  return t;
}

function chatState(p: PacerState, chatId: bigint): ChatState {
  let s = p.chats.get(chatId);
  if (!s) {
    s = { calls: [], blockedUntil: 0 };
    p.chats.set(chatId, s);
  }
  return s;
}

function book(p: PacerState, chatId: bigint, at: number): void {
  const s = chatState(p, chatId);
  const call: Call = { chatId, sentAt: at, answeredAt: null };
  // In time order: a bot's group reply is learnt after the relay's later sends.
  let j = s.calls.length;
  while (j > 0 && s.calls[j - 1]!.sentAt > at) j--;
  s.calls.splice(j, 0, call);
  let i = p.global.length;
  while (i > 0 && p.global[i - 1]!.sentAt > at) i--;
  p.global.splice(i, 0, call);
}

function prune(p: PacerState, now: number): void {
  const { global, globalLimit } = p;
  const done = (call: Call, keepMs: number) =>
    call.answeredAt !== null && call.answeredAt + keepMs <= now;
  // Only the last `globalLimit` calls can hold the next one back, and only until their window passed.
  while (
    global.length > 0 &&
    (global.length > globalLimit || done(global[0]!, p.globalWindow)) &&
    global[0]!.answeredAt !== null
  )
    global.shift();
  for (const [chatId, s] of p.chats) {
    const keep = isGroupChat(chatId) ? p.groupWindow : p.chatInterval;
    const limit = isGroupChat(chatId) ? p.limits.groupPerWindow : 1;
    while (
      s.calls.length > 0 &&
      (s.calls.length > limit || done(s.calls[0]!, keep)) &&
      s.calls[0]!.answeredAt !== null
    )
      s.calls.shift();
    if (s.calls.length === 0 && s.blockedUntil <= now) p.chats.delete(chatId);
  }
}
