// Fault injection: errors, latency and hangs on Bot API calls, lost and duplicated webhook deliveries.
// Rates draw from a seeded generator, so a failing run can be replayed with the same seed.
import {
  badGateway,
  type BotApiError,
  internalError,
  notFound,
  tooManyRequests,
} from "./errors.ts";

export interface MethodFault {
  /** Method name(s) the rule applies to (any case); all methods when absent. */
  method?: string | string[];
  /** Only calls aimed at this chat (by chat_id). */
  chatId?: number;
  /** Share of matching calls answered 429 "Too Many Requests: retry after N" (0-1). */
  rate429?: number;
  /** The retry_after of injected 429s, in seconds (default 1). */
  retryAfter?: number;
  /** Share of matching calls answered 500 "Internal Server Error" (0-1). */
  rate500?: number;
  /**
   * Answer every matching call 404 "Not Found", as a Bot API server that does not implement the
   * method does (Telegram's own answers an unknown method so).
   */
  unimplemented?: boolean;
  /**
   * Matching calls are accepted and never answered, as a Bot API behind a stalled network: the
   * method does not run, and the request stays open until the client gives up on it (or the rule
   * is removed, when it is answered 502 Bad Gateway). Counts against `times` like an error.
   */
  hang?: boolean;
  /**
   * Matching calls run, and their answer is lost on the way back: the connection closes, as when
   * the network fails after Telegram acted. The client cannot tell whether the call took effect.
   * Counts against `times` like an error.
   */
  loseAnswer?: boolean;
  /** Added latency before the call is handled: a fixed delay or a random one in [min, max]. */
  latencyMs?: number | { min: number; max: number };
  /** The rule injects at most this many errors, then only its latency stays (default unlimited). */
  times?: number;
}

export interface DeliveryFaults {
  /** Share of 2xx webhook responses treated as lost, so Telegram sends the update again (0-1). */
  dropResponseRate?: number;
  /** Treat the next N 2xx webhook responses as lost. */
  dropNextResponses?: number;
  /** Share of delivered updates sent once more afterwards, with the same update_id (0-1). */
  duplicateRate?: number;
  /** Send the next N delivered updates once more. */
  duplicateNext?: number;
  /**
   * getUpdates answers at once, ignoring its long-poll timeout, as a misbehaving Bot API server or
   * proxy can: an empty answer comes back in a millisecond.
   */
  pollsAnswerAtOnce?: boolean;
  /**
   * Every webhook request fails as if the bot's address did not answer (a bad deploy, an expired
   * certificate, the proxy down); updates wait and are re-sent with backoff, as Telegram does.
   */
  webhookUnreachable?: boolean;
}

/** Calls of a method held at arrival, as a network that delivers them late; see `Faults.hold`. */
export interface HoldHandle {
  /** Calls waiting right now. */
  readonly waiting: number;
  /** Lets every waiting call through, and every later one at once. */
  release(): void;
}

interface ActiveHold {
  methods: Set<string>;
  released: Promise<void>;
  release: () => void;
  waiting: number;
}

export interface FaultHandle {
  /** How many errors this rule has injected so far. */
  readonly injected: number;
  remove(): void;
}

export interface FaultDecision {
  latencyMs: number;
  error?: BotApiError;
  kind?: "429" | "500" | "404" | "hang" | "lost";
  /** A hanging call: resolves when its rule is removed. */
  hangs?: Promise<void>;
  /** The call runs, and its answer is lost (`loseAnswer`). */
  losesAnswer?: boolean;
}

interface ActiveRule {
  rule: MethodFault;
  methods: Set<string> | undefined;
  injected: number;
  removed: Promise<void>;
  remove: () => void;
}

/** mulberry32: small, fast and good enough to make fault patterns reproducible. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Faults {
  private rules: ActiveRule[] = [];
  private holds: ActiveHold[] = [];
  private deliveryFaults: DeliveryFaults = {};

  constructor(private readonly random: () => number) {}

  /** Adds a rule; rules stack, the first one that injects an error wins. */
  set(rule: MethodFault): FaultHandle {
    const methods =
      rule.method === undefined
        ? undefined
        : new Set([rule.method].flat().map((m) => m.toLowerCase()));
    let resolve!: () => void;
    const removed = new Promise<void>((r) => (resolve = r));
    const active: ActiveRule = {
      rule,
      methods,
      injected: 0,
      removed,
      remove: () => {
        this.rules = this.rules.filter((r) => r !== active);
        resolve();
      },
    };
    this.rules.push(active);
    return {
      get injected() {
        return active.injected;
      },
      remove: active.remove,
    };
  }

  /**
   * Refuses the next call of `method` to `chatId` with a 429 whose retry_after (60 s) is longer
   * than any bot waits: the way to make one reply fail for good.
   *
   * @example
   * const refused = kit.faults.refuseNext("sendMessage", user.id);
   * await user.pay(); // the bot's confirmation is refused
   * expect(refused.injected).toBe(1);
   */
  refuseNext(method: string, chatId: number): FaultHandle {
    return this.set({ method, chatId, rate429: 1, retryAfter: 60, times: 1 });
  }

  /**
   * Holds every call of `method` when it arrives, before it is handled, until `release()`: what
   * the bot sent takes effect only then (an answer to a pre-checkout query, say, and the payment
   * that follows it), at a moment the test chooses.
   *
   * @example
   * const held = kit.faults.hold("answerPreCheckoutQuery");
   * // ... wait until held.waiting > 0, break something ...
   * held.release(); // the payment goes through now
   */
  hold(method: string | string[]): HoldHandle {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const active: ActiveHold = {
      methods: new Set([method].flat().map((m) => m.toLowerCase())),
      released,
      release: () => {
        this.holds = this.holds.filter((h) => h !== active);
        release();
      },
      waiting: 0,
    };
    this.holds.push(active);
    return {
      get waiting() {
        return active.waiting;
      },
      release: active.release,
    };
  }

  /** Waits while a hold on `method` is in place (at once when there is none). */
  async passHolds(method: string): Promise<void> {
    const name = method.toLowerCase();
    for (const hold of this.holds.filter((h) => h.methods.has(name))) {
      hold.waiting++;
      await hold.released;
      hold.waiting--;
    }
  }

  /** Sets (replaces) the webhook delivery faults. */
  delivery(faults: DeliveryFaults): void {
    this.deliveryFaults = { ...faults };
  }

  /** Removes every rule and delivery fault. */
  clear(): void {
    for (const hold of this.holds) hold.release();
    for (const rule of this.rules) rule.remove();
    this.rules = [];
    this.deliveryFaults = {};
  }

  /** What happens to one call: its extra latency and, maybe, the error it gets instead. */
  decide(method: string, chatId: number | undefined): FaultDecision {
    const decision: FaultDecision = { latencyMs: 0 };
    const name = method.toLowerCase();
    for (const active of this.rules) {
      const { rule } = active;
      if (active.methods && !active.methods.has(name)) continue;
      if (rule.chatId !== undefined && rule.chatId !== chatId) continue;
      decision.latencyMs += this.latency(rule.latencyMs);
      if (decision.error || decision.losesAnswer) continue;
      if (rule.times !== undefined && active.injected >= rule.times) continue;
      if (rule.hang) {
        decision.error = badGateway();
        decision.kind = "hang";
        decision.hangs = active.removed;
      } else if (rule.unimplemented) {
        decision.error = notFound();
        decision.kind = "404";
      } else if (rule.rate429 && this.random() < rule.rate429) {
        decision.error = tooManyRequests(Math.max(1, Math.round(rule.retryAfter ?? 1)));
        decision.kind = "429";
      } else if (rule.rate500 && this.random() < rule.rate500) {
        decision.error = internalError();
        decision.kind = "500";
      } else if (rule.loseAnswer) {
        decision.losesAnswer = true;
        decision.kind = "lost";
      }
      if (decision.error || decision.losesAnswer) active.injected++;
    }
    return decision;
  }

  /** Should this 2xx webhook response be treated as lost? */
  dropResponse(): boolean {
    const f = this.deliveryFaults;
    if (f.dropNextResponses && f.dropNextResponses > 0) {
      f.dropNextResponses--;
      return true;
    }
    return !!f.dropResponseRate && this.random() < f.dropResponseRate;
  }

  /** Does getUpdates answer without waiting for its timeout? */
  pollsAnswerAtOnce(): boolean {
    return this.deliveryFaults.pollsAnswerAtOnce === true;
  }

  /** Does every webhook request fail before reaching the bot? */
  webhookUnreachable(): boolean {
    return this.deliveryFaults.webhookUnreachable === true;
  }

  /** Should this delivered update be sent once more? */
  duplicate(): boolean {
    const f = this.deliveryFaults;
    if (f.duplicateNext && f.duplicateNext > 0) {
      f.duplicateNext--;
      return true;
    }
    return !!f.duplicateRate && this.random() < f.duplicateRate;
  }

  private latency(spec: MethodFault["latencyMs"]): number {
    if (spec === undefined) return 0;
    if (typeof spec === "number") return spec;
    return spec.min + this.random() * (spec.max - spec.min);
  }
}
