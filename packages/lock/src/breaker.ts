// Layer: the circuit breaker. After `failureThreshold` consecutive failures it opens: calls fail
// at once for `coolDownMs` instead of each waiting out its own timeout. Then it half-opens and
// lets one probe through; a success closes it, a failure opens it again. What a failure means
// (no connection, a timeout, LOADING, READONLY, OOM ...) is decided in commands.ts; what a caller
// then gets is its kind's outage policy (refuse, proceed-db-only, skip: ON_OUTAGE in with-lock.ts).
//
// What it adds: while Redis is down, callers get the kind's policy at once instead of after a
// command timeout each, and a recovering Redis is probed by one call, not by every caller.
// What it costs: this file, a few lines in commands.ts, and calls refused for `coolDownMs` after
// Redis is back.
// When to leave it out: a single process with few callers, where a command timeout per call is
// acceptable (pass `breaker: { failureThreshold: Number.MAX_SAFE_INTEGER, ... }`, or drop the
// `allow()`, `success()` and `failure()` calls from commands.ts along with this file).

export type BreakerState = "closed" | "open" | "half-open";

export interface BreakerOptions {
  failureThreshold: number;
  coolDownMs: number;
}

export class CircuitBreaker {
  #failures = 0;
  #openedAt = 0;
  #state: BreakerState = "closed";
  #probing = false;

  constructor(
    private readonly options: BreakerOptions,
    private readonly onChange: (state: BreakerState) => void = () => {},
    private readonly now: () => number = Date.now,
  ) {}

  get state(): BreakerState {
    if (this.#state === "open" && this.now() - this.#openedAt >= this.options.coolDownMs)
      return "half-open";
    return this.#state;
  }

  /** Whether a call may go to Redis now. In half-open state only one probe at a time may. */
  allow(): boolean {
    const state = this.state;
    if (state === "closed") return true;
    if (state === "open" || this.#probing) return false;
    this.#probing = true;
    return true;
  }

  success(): void {
    this.#failures = 0;
    this.#probing = false;
    this.#set("closed");
  }

  failure(): void {
    this.#failures += 1;
    this.#probing = false;
    if (this.#state !== "closed" || this.#failures >= this.options.failureThreshold) {
      this.#openedAt = this.now();
      this.#set("open");
    }
  }

  #set(state: BreakerState): void {
    if (this.#state === state) return;
    this.#state = state;
    this.onChange(state);
  }
}
