// The public contract of @orderbot/lock. Other packages (core, bot, worker) code against these
// types; the implementation lives beside this file.
import type { LockStats } from "./manager-options.ts";

export type {
  LockLogger,
  LockManagerOptions,
  LockRedisClient,
  LockStats,
  LockSubscriberClient,
} from "./manager-options.ts";

/**
 * What to do when Redis cannot be reached, declared once per lock kind (data, not scattered ifs):
 * - `refuse`: the operation is refused (high-risk work: stock, cancellations, imports);
 * - `proceed-db-only`: the work runs without the lock, on database guarantees alone (money
 *   already taken: a payment confirmation must never be dropped because Redis is down);
 * - `skip`: the work is skipped this time (periodic jobs: the next tick tries again).
 *
 * @example
 * const kinds = { checkout: { ttlMs: 5000, waitMs: 0, outage: "refuse" } } satisfies Record<string, LockKindConfig>;
 */
export type OutagePolicy = "refuse" | "proceed-db-only" | "skip";

/**
 * One kind of lock: how long a lease lasts, how long a caller waits, and what an outage means.
 *
 * @example
 * const order: LockKindConfig = { ttlMs: 5000, waitMs: 2000, outage: "refuse", maxHoldMs: 30_000 };
 */
export interface LockKindConfig {
  /** Lease length (ms). Choose it from the hold-time histogram's p99 plus a margin. */
  ttlMs: number;
  /** Default wait for a held lock (ms); 0 = try once. */
  waitMs: number;
  outage: OutagePolicy;
  /** The id identifies a person (a user, a chat): HMAC it before it goes into a key. */
  personal?: boolean;
  /** Watchdog cap for withLock: at most this many renewals (default: unlimited). */
  maxRenewals?: number;
  /** Watchdog cap for withLock: the lease is not renewed past this total hold time (ms). */
  maxHoldMs?: number;
  /**
   * How long this kind's fence counters live after the last acquisition (ms, at least the TTL
   * is used; default: the manager's `fenceRetentionMs`). Fences keep growing past it (they are
   * floored by the server clock), so a kind with many short-lived ids can keep it short.
   */
  fenceRetentionMs?: number;
}

/**
 * The thing a lock protects: a kind configured on the manager and the resource's id.
 *
 * @example
 * const resource: LockResource = { kind: "order", id: order.publicId };
 */
export interface LockResource {
  kind: string;
  id: string | number | bigint;
}

/**
 * Per-call overrides of the kind's defaults.
 *
 * @example
 * await locks.acquire({ kind: "order", id }, { waitMs: 2000, signal: AbortSignal.timeout(8000), requestId: String(update.update_id) });
 */
export interface AcquireOptions {
  ttlMs?: number;
  waitMs?: number;
  /**
   * Ends a wait at once: `acquire`/`withLock` then reject with the signal's reason. Aborted while
   * withLock's task runs, it stops the renewals, aborts the lease's signal with its reason and
   * releases the lock at once (the task must stop at its next step).
   */
  signal?: AbortSignal;
  /** Correlation id for logs (e.g. the Telegram update id). Never a secret. */
  requestId?: string;
}

/**
 * A held lock. Pass `fence` along with writes a storage can check; stop when `signal` aborts.
 *
 * @example
 * const result = await locks.acquire({ kind: "order", id });
 * if (result.ok) {
 *   try { await work(result.lease.signal, result.lease.fence); } finally { await result.lease.release(); }
 * }
 */
export interface Lease {
  /**
   * Redis key of the lock: `{namespace:lock:kind:id}`. The braces are a Redis Cluster hash tag, so
   * the fence counter `{namespace:lock:kind:id}:fence` lands in the same slot. Personal ids
   * appear as `h.` plus an HMAC, never raw.
   */
  readonly key: string;
  readonly kind: string;
  /** Random, unpredictable owner token; release and extend compare it. */
  readonly token: string;
  /** Fencing number, strictly increasing per key across all holders. */
  readonly fence: number;
  /** Aborts when the lease is lost, cannot be renewed, or is about to expire unrenewed. */
  readonly signal: AbortSignal;
  readonly acquiredAt: number;
  /** Local estimate of when the lease expires (epoch ms), updated by every extend. */
  readonly expiresAt: number;
  /**
   * When its signal aborts unless a renewal lands first: `expiresAt` less the safety margin (epoch
   * ms). A holder that checks the clock itself (after a pause, say) compares with this.
   */
  readonly abortsAt: number;
  /** Owner-checked PEXPIRE. Resolves false (and aborts the signal) when the lease is no longer ours. */
  extend(ttlMs?: number): Promise<boolean>;
  /** Owner-checked delete. Never deletes another holder's lock. */
  release(): Promise<ReleaseOutcome>;
}

/**
 * `not-owner`: the lock had expired or been taken over; nothing was deleted (counted and logged).
 *
 * @example
 * if ((await lease.release()) === "not-owner") log.warn("the work outlived its lock");
 */
export type ReleaseOutcome = "released" | "not-owner";

/**
 * What `acquire` returns: a lease, or busy when the lock stayed taken for the whole wait.
 *
 * @example
 * const result = await locks.acquire({ kind: "checkout", id: userId }, { waitMs: 0 });
 * if (!result.ok) return reply("Already processing your order…");
 */
export type AcquireResult =
  { ok: true; lease: Lease } | { ok: false; reason: "busy"; key: string; waitedMs: number };

/**
 * What withLock hands the task. `lease` is null when the kind's outage policy let it run lockless.
 *
 * @example
 * await locks.withLock(res, async ({ lease, signal }) => {
 *   signal.throwIfAborted();
 *   await db.updateOrder(id, { fence: lease?.fence ?? null });
 * });
 */
export interface LockContext {
  lease: Lease | null;
  /** Aborts when the lease is lost; the task must stop at its next step and not commit. */
  signal: AbortSignal;
}

/**
 * What withLock returns: the task's value, or why it did not run. `degraded` is true when it ran
 * without the lock because Redis was down and the kind's policy is `proceed-db-only`.
 *
 * @example
 * const outcome = await locks.withLock({ kind: "order", id }, async () => cancel(id));
 * switch (outcome.status) {
 *   case "ok": return outcome.value;
 *   case "busy": return "This order is being changed, try again.";
 *   case "unavailable": case "skipped": return "Try again shortly.";
 * }
 */
export type LockOutcome<T> =
  | { status: "ok"; value: T; fence: number | null; degraded: boolean }
  | { status: "busy" }
  | { status: "unavailable" }
  | { status: "skipped" };

/**
 * Acquire options plus the watchdog caps (which override the kind's).
 *
 * @example
 * await locks.withLock({ kind: "job", id: "relay" }, runRelay, { maxHoldMs: 60_000 });
 */
export interface WithLockOptions extends AcquireOptions {
  maxRenewals?: number;
  maxHoldMs?: number;
}

/**
 * Redis resource locks. Create one per process with `createLockManager`.
 *
 * @example
 * const outcome = await locks.withLock({ kind: "order", id }, async ({ signal }) => pay(id, signal), { waitMs: 2000 });
 */
export interface LockManager {
  acquire(resource: LockResource, options?: AcquireOptions): Promise<AcquireResult>;
  withLock<T>(
    resource: LockResource,
    fn: (ctx: LockContext) => Promise<T>,
    options?: WithLockOptions,
  ): Promise<LockOutcome<T>>;
  keyFor(resource: LockResource): string;
  policyFor(kind: string): OutagePolicy;
  /** Stops the subscriber, aborts waiters, releases nothing (leases are released by their holders). */
  close(): Promise<void>;
  /** A snapshot of waiters, subscriptions, timers and leases (for tests and debugging). */
  stats(): LockStats;
}

/**
 * Metric names (prom-client, every one labelled by `kind`). Dashboards and alert rules use these
 * names; a test checks the two agree.
 *
 * @example
 * const lost = registry.getSingleMetric(LOCK_METRICS.leaseLostTotal);
 */
export const LOCK_METRICS = {
  acquireTotal: "orderbot_lock_acquire_total", // counter, label outcome: acquired|busy|unavailable|aborted
  waitSeconds: "orderbot_lock_wait_seconds", // histogram
  holdSeconds: "orderbot_lock_hold_seconds", // histogram
  renewalsTotal: "orderbot_lock_renewals_total", // counter, label outcome: ok|lost|error
  leaseLostTotal: "orderbot_lock_lease_lost_total", // counter: work was running when the lease was lost
  releaseNotOwnerTotal: "orderbot_lock_release_not_owner_total", // counter
  redisLatencySeconds: "orderbot_lock_redis_command_seconds", // histogram, label command
  breakerOpen: "orderbot_lock_breaker_open", // gauge 0/1
  degradedTotal: "orderbot_lock_degraded_total", // counter, label policy: ran lockless or skipped on outage
} as const;
