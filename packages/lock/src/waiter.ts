// One caller waiting for a lock. It sleeps until the lock is handed to it, the waiter ahead of it
// leaves, its re-check timer fires, or its wait is cancelled (AbortSignal, or the manager closing)
// — which ends the wait at once, whatever it was doing, and leaves no timer or listener behind.
import type { TimerHandle, Timers } from "./timers.ts";

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
  /** Set once a release handed the lock to this waiter's token. */
  handover: Handover | undefined;
  /** When (local ms) the last attempt that put this waiter's ticket in line was sent, and Redis's time then. */
  lastSentAt = 0;
  lastServerMs = 0;
  /** When (local ms) this waiter's first attempt was sent: no ticket of it, so no hand-off to it, is older. */
  firstSentAt = 0;
  /** Whether Redis may hold a place in line for this manager and key (so leave it on success). */
  inLine = false;
  /** Whether this waiter already asked for the manager's channel to be subscribed. */
  subscribed = false;
  /** The waiter of this process behind it for the same key (see WaitQueues). */
  next: Waiter | undefined;
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
    if (this.handover) return Promise.resolve("handed");
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
    if (this.#cancelled || this.handover) return false;
    this.handover = handover;
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
