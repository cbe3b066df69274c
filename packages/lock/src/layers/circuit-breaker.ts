// Layer: the circuit breaker. After `failureThreshold` consecutive failures it opens: commands
// fail at once for `coolDownMs` instead of each waiting out its timeout. Then it half-opens and
// lets one probe through; a success closes it, a failure opens it again. What counts as a
// failure (no connection, a timeout, LOADING, READONLY, OOM ...) is the core's rule; what a
// withLock caller then gets is its kind's outage policy (core/with-lock.ts).
//
// What it adds: while Redis is down, callers get their policy at once instead of after a command
// timeout each, and a recovering Redis is probed by one call, not by every caller.
// What it costs: this file, and calls refused for up to `coolDownMs` after Redis is back.
// When to leave it out: one process with few callers, where a command timeout per call is fine.
import { LockInputError, type BreakerLayer, type Layer, type LockStats } from "../core/types.ts";

export type BreakerState = LockStats["breaker"];

export interface BreakerOptions {
  failureThreshold: number;
  coolDownMs: number;
}

export class CircuitBreaker implements BreakerLayer {
  #failures = 0;
  #openedAt = 0;
  #state: BreakerState = "closed";
  #probing = false;

  constructor(
    private readonly options: BreakerOptions,
    private readonly onChange: (state: BreakerState) => void = () => {},
    private readonly now: () => number = () => performance.now(), // monotonic: a clock step cannot hold it open
  ) {}

  /** Told after every command: whether Redis answered (an error reply is an answer too). */
  answered(ok: boolean): void {
    if (ok) this.success();
    else this.failure();
  }

  get state(): BreakerState {
    if (this.#state === "open" && this.now() - this.#openedAt >= this.options.coolDownMs)
      return "half-open";
    return this.#state;
  }

  /** Whether a call may go to Redis now. Half-open, only one probe at a time may. */
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

/** The breaker layer (default: opens after 5 failures in a row, probes again after 2 s).
 * @example createLockManager({ ...options, layers: { breaker: circuitBreaker({ failureThreshold: 3, coolDownMs: 1000 }) } }) */
export function circuitBreaker(
  options: BreakerOptions = { failureThreshold: 5, coolDownMs: 2000 },
): Layer<BreakerLayer> {
  for (const [field, value] of Object.entries(options))
    if (!Number.isInteger(value) || value < 1)
      throw new LockInputError(`breaker.${field} must be a positive integer`, `breaker.${field}`);
  return (host) =>
    new CircuitBreaker(
      options,
      (state) => {
        for (const kind of host.config.kinds.keys())
          host.metrics(kind).breakerOpen(state === "open");
        const log = state === "open" ? host.logger.warn : host.logger.info;
        log.call(host.logger, { breaker: state }, `lock Redis circuit breaker ${state}`);
      },
      host.clock,
    );
}
