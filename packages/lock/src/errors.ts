// Typed errors of @orderbot/lock. Expected outcomes (busy, not-owner) are return values; these are
// for what a caller cannot treat as a normal result: bad input, and Redis being out of reach.

/**
 * Invalid input, thrown before any Redis command is sent: an unknown kind, an empty id, a TTL
 * outside the configured bounds, a negative or endless wait, a bad manager option.
 *
 * @example
 * try { await locks.acquire({ kind: "ordr", id: 1 }); }
 * catch (error) { if (error instanceof LockInputError) console.error(error.field, error.message); }
 */
export class LockInputError extends Error {
  override name = "LockInputError";
  constructor(
    message: string,
    /** The option or field at fault, e.g. `"kind"`, `"ttlMs"`. */
    readonly field: string,
  ) {
    super(message);
  }
}

/**
 * Why Redis could not serve a lock command.
 *
 * @example
 * if (error instanceof LockUnavailableError && error.reason === "breaker-open") metrics.fastFailures.inc();
 */
export type UnavailableReason =
  "connection" | "timeout" | "oom" | "breaker-open" | "replication" | "closed";

/**
 * Redis could not be reached (connection failure, command timeout, Redis out of memory under
 * `noeviction`, circuit breaker open, too few
 * replicas acknowledged in strict mode, or the manager was closed). `withLock` turns it into the
 * kind's outage policy, except when the manager was closed: shutting down is no outage, and work
 * must not run lockless while another instance may hold the lock. `acquire` callers decide for
 * themselves.
 *
 * @example
 * try { await locks.acquire({ kind: "order", id }); }
 * catch (error) { if (error instanceof LockUnavailableError) return reply("try again shortly"); throw error; }
 */
export class LockUnavailableError extends Error {
  override name = "LockUnavailableError";
  readonly reason: UnavailableReason;
  readonly kind: string | undefined;
  constructor(
    message: string,
    details: { reason: UnavailableReason; kind?: string; cause?: unknown },
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.reason = details.reason;
    this.kind = details.kind;
  }
}

/**
 * Why a lease's signal aborted.
 *
 * @example
 * signal.addEventListener("abort", () => log.warn({ reason: (signal.reason as LeaseLostError).reason }, "lock lost"));
 */
export type LeaseLossReason =
  "expired" | "not-owner" | "renewal-failed" | "connection-lost" | "renewal-capped";

/**
 * The `reason` a lease's `signal` aborts with: the holder must stop at its next step and must not
 * commit anything that relies on holding the lock.
 *
 * @example
 * await locks.withLock(res, async ({ signal }) => {
 *   signal.throwIfAborted(); // throws LeaseLostError once the lease is gone
 * });
 */
export class LeaseLostError extends Error {
  override name = "LeaseLostError";
  constructor(
    readonly key: string,
    readonly reason: LeaseLossReason,
    cause?: unknown,
  ) {
    super(`lock lease lost (${reason})`, cause === undefined ? undefined : { cause });
  }
}
