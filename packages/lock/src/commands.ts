// Every Redis command of the lock goes through `run`: a bounded timeout of our own (a hung Redis,
// or a client that queues commands while offline, must not hang the caller), the circuit
// breaker, the latency metric, and one rule for what counts as "Redis unreachable".
//
// The timeouts share one sweep timer per manager instead of a timer per command: a command
// fails between `timeoutMs` and `timeoutMs + timeoutMs / 10` after it was sent.
import type { CircuitBreaker } from "./breaker.ts";
import { LockUnavailableError } from "./errors.ts";
import type { KindMetrics, LockCommand } from "./metrics.ts";
import type { LuaScript, ScriptClient } from "./scripts.ts";
import type { TimerHandle } from "./timers.ts";

/**
 * Errors Redis answers with that still mean "cannot serve a lock now" (loading a dataset, a
 * replica during failover, a cluster without quorum, memory full under `noeviction`). Any other
 * reply error is a real answer.
 */
const UNAVAILABLE_REPLIES =
  /^(LOADING|READONLY|MASTERDOWN|CLUSTERDOWN|TRYAGAIN|BUSY|NOREPLICAS|OOM)\b/;

/** `OOM command not allowed when used memory > 'maxmemory'`: Redis is up, but takes no new key. */
const isOutOfMemory = (error: unknown) =>
  error instanceof Error && error.message.startsWith("OOM ");

function isReplyError(error: unknown): boolean {
  return (
    error instanceof Error &&
    error.name === "ReplyError" &&
    !UNAVAILABLE_REPLIES.test(error.message)
  );
}

/** The client's own command timeout (ioredis `commandTimeout`), which may fire before ours. */
function isClientTimeout(error: unknown): boolean {
  return error instanceof Error && error.message === "Command timed out";
}

export class CommandTimeoutError extends Error {
  override name = "CommandTimeoutError";
}

/** One command in flight. */
class InFlight<T = unknown> {
  constructor(
    readonly command: LockCommand,
    readonly metrics: KindMetrics,
    readonly kind: string,
    readonly started: number,
    readonly deadline: number,
    readonly timeoutMs: number,
    readonly resolve: (value: T) => void,
    readonly reject: (error: unknown) => void,
    /** A script to send once more with EVAL if the server answers NOSCRIPT (then cleared). */
    public script: LuaScript | undefined,
    readonly keysAndArgs: (string | number)[] | undefined,
  ) {}
}

export class CommandRunner {
  /** In the order they were sent, which is roughly the order they time out in. */
  readonly #inFlight = new Set<InFlight>();
  #sweeper: TimerHandle | undefined;

  constructor(
    private readonly breaker: CircuitBreaker,
    private readonly timeoutMs: number,
    private readonly redis: ScriptClient,
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
   * times out (our timeout or the client's own, whichever fires first: reason "timeout") or the
   * connection fails; other Redis errors are passed through unchanged. A command that timed out
   * may still run on Redis later: the caller decides what to undo. `timeoutMs` overrides the
   * manager's command timeout (WAIT takes its own bound plus that).
   * (Positional, not an options object: this runs twice per lock+unlock.)
   */
  run<T>(
    command: LockCommand,
    metrics: KindMetrics,
    kind: string,
    send: () => Promise<T>,
    timeoutMs: number = this.timeoutMs,
  ): Promise<T> {
    if (!this.breaker.allow()) return this.#refused(kind);
    const started = performance.now();
    let sent: Promise<T>;
    try {
      sent = send(); // first: the bookkeeping below runs while Redis works
    } catch (error) {
      sent = Promise.reject(error); // a client that throws instead of rejecting fails the same way
    }
    return this.#track(command, metrics, kind, started, timeoutMs, sent, undefined, undefined);
  }

  /**
   * Runs a Lua script by SHA, as `run` runs a command (no closure to build: the lock's own
   * commands take this path). On NOSCRIPT (fresh start, failover, SCRIPT FLUSH) the script's
   * `resend` is sent once, under the same timeout; the success path pays for nothing extra.
   */
  script(
    command: LockCommand,
    metrics: KindMetrics,
    kind: string,
    script: LuaScript,
    keysAndArgs: (string | number)[],
  ): Promise<unknown> {
    if (!this.breaker.allow()) return this.#refused(kind);
    const started = performance.now();
    const sent = script.send(this.redis, keysAndArgs);
    return this.#track(command, metrics, kind, started, this.timeoutMs, sent, script, keysAndArgs);
  }

  #refused(kind: string): Promise<never> {
    return Promise.reject(
      new LockUnavailableError("Redis circuit breaker is open", { reason: "breaker-open", kind }),
    );
  }

  #track<T>(
    command: LockCommand,
    metrics: KindMetrics,
    kind: string,
    started: number,
    timeoutMs: number,
    sent: Promise<T>,
    script: LuaScript | undefined,
    keysAndArgs: (string | number)[] | undefined,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const entry = new InFlight<T>(
        command,
        metrics,
        kind,
        started,
        started + timeoutMs,
        timeoutMs,
        resolve,
        reject,
        script,
        keysAndArgs,
      );
      this.#inFlight.add(entry as InFlight);
      if (this.#sweeper === undefined) this.#sweeper = this.#schedule();
      this.#watch(entry, sent);
    });
  }

  #watch<T>(entry: InFlight<T>, sent: Promise<T>): void {
    sent.then(
      (value) => this.#answered(entry, value),
      (error: unknown) => this.#failed(entry as InFlight, error),
    );
  }

  #answered<T>(entry: InFlight<T>, value: T): void {
    if (!this.#inFlight.delete(entry as InFlight)) return; // it had timed out already
    entry.metrics.command(entry.command, (performance.now() - entry.started) / 1000);
    this.breaker.success();
    entry.resolve(value);
  }

  #failed(entry: InFlight, error: unknown): void {
    if (!this.#inFlight.has(entry)) return; // it had timed out already
    const resent = entry.script?.resend(error, this.redis, entry.keysAndArgs!);
    entry.script = undefined; // once: a second NOSCRIPT is an answer like any other
    if (resent) return this.#watch(entry, resent);
    this.#inFlight.delete(entry);
    this.#fail(entry, error, isClientTimeout(error));
  }

  #fail(entry: InFlight, error: unknown, timedOut: boolean): void {
    entry.metrics.command(entry.command, (performance.now() - entry.started) / 1000);
    if (isReplyError(error)) {
      this.breaker.success(); // Redis answered: it is reachable
      return entry.reject(error);
    }
    this.breaker.failure();
    const message = `Redis unavailable for lock ${entry.command}: ${(error as Error).message}`;
    entry.reject(
      new LockUnavailableError(message, {
        reason: timedOut ? "timeout" : isOutOfMemory(error) ? "oom" : "connection",
        kind: entry.kind,
        cause: error,
      }),
    );
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
      this.#fail(
        entry,
        new CommandTimeoutError(`Redis ${entry.command} took longer than ${entry.timeoutMs} ms`),
        true,
      );
    }
    if (this.#inFlight.size > 0) this.#sweeper = this.#schedule();
  };
}
