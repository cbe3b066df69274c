// One caller waiting for a lock. It sleeps until the lock is handed to its manager, its re-check
// timer fires, or its wait is cancelled (AbortSignal, or the manager closing) — which ends the
// wait at once, whatever it was doing, and leaves no timer or listener behind.
import type { TimerHandle, Timers } from "./timers.ts";

/** Why a sleep ended: the lock was handed over, the timer fired, or the waiter became first in line. */
export type WakeReason = "notified" | "timer" | "promoted";

export class Waiter {
  #timer: TimerHandle | undefined;
  #wake: ((reason: WakeReason) => void) | undefined;
  /** Rejects whatever the waiter is awaiting right now (a sleep or a Redis call). */
  #interrupt: ((reason: unknown) => void) | undefined;
  #notified = false;
  #cancelled: { reason: unknown } | undefined;
  readonly #onAbort = () => this.cancel(this.signal?.reason);

  constructor(
    readonly lockKey: string,
    private readonly timers: Timers,
    private readonly signal: AbortSignal | undefined,
  ) {
    if (signal?.aborted) this.cancel(signal.reason);
    else signal?.addEventListener("abort", this.#onAbort, { once: true });
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

  /** Sleeps up to `ms`; the lock being handed over (notify) or a promotion ends it early. */
  sleep(ms: number): Promise<WakeReason> {
    if (this.#cancelled) return Promise.reject(this.#cancelled.reason);
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

  /** The lock was handed over: wake now, or, if busy asking Redis, remember to ask again at once. */
  notify(): void {
    if (this.#wake) this.#wake("notified");
    else this.#notified = true;
  }

  /** The waiter ahead left with the lock: this one is first now and sleeps until told (or its timer). */
  promote(): void {
    this.#wake?.("promoted");
  }

  /** Whether the lock was handed over since the last call, while no sleep was running. */
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
    this.signal?.removeEventListener("abort", this.#onAbort);
    this.timers.clear(this.#timer);
    this.#timer = undefined;
    this.#wake = undefined;
    this.#interrupt = undefined;
  }
}
