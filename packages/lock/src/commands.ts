// Every Redis command of the lock goes through `run`: a bounded timeout of our own (a hung Redis,
// or a client that queues commands while offline, must not hang the caller), the circuit
// breaker, the latency metric, and one rule for what counts as "Redis unreachable".
//
// The timeouts share one sweep timer per manager instead of a timer per command: a command
// fails between `timeoutMs` and `timeoutMs + timeoutMs / 10` after it was sent, and the hot path
// never touches the timer wheel.
import type { CircuitBreaker } from "./breaker.ts";
import { LockUnavailableError } from "./errors.ts";
import type { KindMetrics, LockCommand } from "./metrics.ts";
import type { TimerHandle } from "./timers.ts";

/**
 * Errors Redis answers with that still mean "cannot serve a lock now" (loading a dataset, a
 * replica during failover, a cluster without quorum). Any other reply error is a real answer.
 */
const UNAVAILABLE_REPLIES = /^(LOADING|READONLY|MASTERDOWN|CLUSTERDOWN|TRYAGAIN|BUSY|NOREPLICAS)\b/;

function isReplyError(error: unknown): boolean {
  return error instanceof Error && error.name === "ReplyError" && !UNAVAILABLE_REPLIES.test(error.message);
}

export class CommandTimeoutError extends Error {
  override name = "CommandTimeoutError";
}

interface InFlight {
  deadline: number;
  timeOut(): void;
}

export interface RunOptions<T> {
  /** Overrides the manager's command timeout (WAIT takes its own bound plus this). */
  timeoutMs?: number;
  /** Receives the result of a command that timed out but completed afterwards. */
  onLate?: (value: T) => void;
}

export class CommandRunner {
  readonly #inFlight = new Set<InFlight>();
  #sweeper: TimerHandle | undefined;

  constructor(
    private readonly breaker: CircuitBreaker,
    private readonly timeoutMs: number,
  ) {}

  get breakerState() {
    return this.breaker.state;
  }

  /** Commands sent and not answered yet. */
  get inFlight(): number {
    return this.#inFlight.size;
  }

  /**
   * Runs one command. Rejects with LockUnavailableError when the breaker is open, the command
   * times out or the connection fails; other Redis errors are passed through unchanged.
   */
  run<T>(
    command: LockCommand,
    metrics: KindMetrics,
    kind: string,
    send: () => Promise<T>,
    options: RunOptions<T> = {},
  ): Promise<T> {
    if (!this.breaker.allow()) {
      return Promise.reject(
        new LockUnavailableError("Redis circuit breaker is open", { reason: "breaker-open", kind }),
      );
    }
    const started = performance.now();
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    return new Promise<T>((resolve, reject) => {
      const fail = (error: unknown, timedOut: boolean) => {
        metrics.command(command, (performance.now() - started) / 1000);
        if (isReplyError(error)) {
          this.breaker.success(); // Redis answered: it is reachable
          return reject(error);
        }
        this.breaker.failure();
        const message = `Redis unavailable for lock ${command}: ${(error as Error).message}`;
        reject(
          new LockUnavailableError(message, {
            reason: timedOut ? "timeout" : "connection",
            kind,
            cause: error,
          }),
        );
      };
      const entry: InFlight = {
        deadline: started + timeoutMs,
        timeOut: () =>
          fail(new CommandTimeoutError(`Redis ${command} took longer than ${timeoutMs} ms`), true),
      };
      this.#track(entry);
      send().then(
        (value) => {
          if (!this.#inFlight.delete(entry)) return void options.onLate?.(value);
          metrics.command(command, (performance.now() - started) / 1000);
          this.breaker.success();
          resolve(value);
        },
        (error: unknown) => {
          if (this.#inFlight.delete(entry)) fail(error, false);
        },
      );
    });
  }

  #track(entry: InFlight): void {
    this.#inFlight.add(entry);
    if (this.#sweeper === undefined) this.#sweeper = this.#schedule();
  }

  /** The sweep timer stops by itself once no command is in flight; unref'd like every lock timer. */
  #schedule(): TimerHandle {
    return setTimeout(this.#sweep, Math.max(1, Math.ceil(this.timeoutMs / 10))).unref();
  }

  readonly #sweep = (): void => {
    this.#sweeper = undefined;
    const now = performance.now();
    for (const entry of this.#inFlight) {
      if (entry.deadline > now) continue;
      this.#inFlight.delete(entry);
      entry.timeOut();
    }
    if (this.#inFlight.size > 0) this.#sweeper = this.#schedule();
  };
}
