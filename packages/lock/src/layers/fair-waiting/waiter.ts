// One caller waiting for a lock. It sleeps until the lock is handed to it, the waiter ahead of it
// leaves, its re-check timer fires, or its wait is cancelled (AbortSignal, or the manager closing)
// — which ends the wait at once, whatever it was doing, and leaves no timer or listener behind.
/** The manager's counted timers. */
export interface Timers {
  set(fn: () => void, ms: number): TimerHandle;
  clear(handle: TimerHandle | undefined): void;
}
export type TimerHandle = ReturnType<typeof setTimeout>;

/**
 * Why a sleep ended: the lock was handed to this waiter, the waiter ahead left (ask Redis now), or
 * the re-check timer fired.
 */
export type WakeReason = "handed" | "notified" | "timer";

/** A release set the lock to this waiter's token: what its message said. */
export interface Handover {
  fence: number;
  ttlMs: number;
  /** Redis server time (ms) of the hand-off. */
  serverMs: number;
}

export class Waiter {
  #timer: TimerHandle | undefined;
  #wake: ((reason: WakeReason) => void) | undefined;
  /** Rejects whatever the waiter is awaiting right now (a sleep or a Redis call). */
  #interrupt: ((reason: unknown) => void) | undefined;
  #notified = false;
  #cancelled: { reason: unknown } | undefined;
  #handover: Handover | undefined;
  /** When (local ms) the last attempt that put this waiter's ticket in line was sent, and Redis's time then. */
  #lastSentAt = 0;
  #lastServerMs = 0;
  /** When (local ms) this waiter's first attempt was sent: no ticket of it, so no hand-off to it, is older. */
  #firstSentAt = 0;
  #inLine = false;
  #subscribeAsked = false;
  /** Only a wait with a signal listens for its abort. */
  readonly #onAbort: (() => void) | undefined;

  constructor(
    readonly lockKey: string,
    /** The token this waiter's attempts and its ticket in line carry, for its whole wait. */
    readonly token: string,
    private readonly timers: Timers,
    private readonly signal: AbortSignal | undefined,
  ) {
    if (signal?.aborted) this.cancel(signal.reason);
    else if (signal) {
      this.#onAbort = () => this.cancel(signal.reason);
      signal.addEventListener("abort", this.#onAbort, { once: true });
    }
  }

  get cancelled(): boolean {
    return this.#cancelled !== undefined;
  }

  /** Set once a release handed the lock to this waiter's token. */
  get handover(): Handover | undefined {
    return this.#handover;
  }

  /** Whether Redis may hold a place in line for this manager and key (so leave it on success). */
  get inLine(): boolean {
    return this.#inLine;
  }

  /** Redis may have put this manager in line for the key (an attempt ran, or others of ours wait). */
  joinedLine(): void {
    this.#inLine = true;
  }

  /** True the first time only: whether this waiter is the one to ask for the channel's subscription. */
  asksToSubscribe(): boolean {
    const first = !this.#subscribeAsked;
    this.#subscribeAsked = true;
    return first;
  }

  /** An attempt of this waiter was sent at `at` (local ms). */
  attemptSent(at: number): void {
    if (!this.#firstSentAt) this.#firstSentAt = at;
  }

  /** An attempt sent at `sentAt` found the lock taken and queued us; Redis's clock said `serverMs`. */
  heardBusy(sentAt: number, serverMs: number): void {
    this.#lastSentAt = sentAt;
    this.#lastServerMs = serverMs;
  }

  /**
   * When the handed lease started, in our clock: Redis's time of the hand-off, mapped through what
   * our last busy attempt saw (sent at lastSentAt, Redis said lastServerMs, so the clocks differ by
   * at least lastSentAt - lastServerMs). An early estimate only makes the lease look shorter, never
   * longer. Without a busy reply seen (the message came first) the first attempt's sending is the
   * safe bound: no ticket of this waiter, so no hand-off to it, is older.
   */
  handoverStartedAt(serverMs: number): number {
    return this.#lastSentAt
      ? Math.min(Date.now(), serverMs - this.#lastServerMs + this.#lastSentAt)
      : this.#firstSentAt;
  }

  /** `promise`'s outcome, unless the wait is cancelled first: then the cancel reason, at once. */
  race<T>(promise: Promise<T>): Promise<T> {
    if (this.#cancelled) return Promise.reject(this.#cancelled.reason);
    return new Promise<T>((resolve, reject) => {
      this.#interrupt = reject;
      promise.then(resolve, reject);
    });
  }

  /** Sleeps up to `ms`; a hand-off or the waiter ahead leaving ends it early. */
  sleep(ms: number): Promise<WakeReason> {
    if (this.#cancelled) return Promise.reject(this.#cancelled.reason);
    if (this.#handover) return Promise.resolve("handed");
    return new Promise<WakeReason>((resolve, reject) => {
      this.#interrupt = reject;
      this.#wake = (reason) => {
        this.timers.clear(this.#timer);
        this.#timer = undefined;
        this.#wake = undefined;
        resolve(reason);
      };
      this.#timer = this.timers.set(() => this.#wake?.("timer"), ms);
    });
  }

  /** The lock is ours (a release set it to our token). False if this waiter is past taking it. */
  handOver(handover: Handover): boolean {
    if (this.#cancelled || this.#handover) return false;
    this.#handover = handover;
    this.#wake?.("handed");
    return true;
  }

  /** The waiter ahead left: ask Redis now, or, if busy asking, ask again at once. */
  notify(): void {
    if (this.#wake) this.#wake("notified");
    else this.#notified = true;
  }

  /** Whether a notify came since the last call, while no sleep was running. */
  takeNotified(): boolean {
    const notified = this.#notified;
    this.#notified = false;
    return notified;
  }

  cancel(reason: unknown): void {
    if (this.#cancelled) return;
    this.#cancelled = { reason };
    const interrupt = this.#interrupt;
    this.dispose();
    interrupt?.(reason);
  }

  /** Removes the abort listener and the timer: nothing of this waiter stays behind. */
  dispose(): void {
    if (this.#onAbort) this.signal!.removeEventListener("abort", this.#onAbort);
    this.timers.clear(this.#timer);
    this.#timer = undefined;
    this.#wake = undefined;
    this.#interrupt = undefined;
  }
}
