// The public contract of @orderbot/lock. Other packages (core, bot, worker) code against these
// types; the implementation lives beside this file.
import type { Registry } from "prom-client";

/**
 * What to do when Redis cannot be reached, declared once per lock kind (data, not scattered ifs):
 * - `refuse`: the operation is refused (high-risk work: stock, cancellations, imports);
 * - `proceed-db-only`: the work runs without the lock, on database guarantees alone (money
 *   already taken: a payment confirmation must never be dropped because Redis is down);
 * - `skip`: the work is skipped this time (periodic jobs: the next tick tries again).
 */
export type OutagePolicy = "refuse" | "proceed-db-only" | "skip";

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
}

export interface LockResource {
  kind: string;
  id: string | number | bigint;
}

export interface AcquireOptions {
  ttlMs?: number;
  waitMs?: number;
  /** Ends a wait at once: `acquire`/`withLock` then reject with the signal's reason. */
  signal?: AbortSignal;
  /** Correlation id for logs (e.g. the Telegram update id). Never a secret. */
  requestId?: string;
}

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
  /** Owner-checked PEXPIRE. Resolves false (and aborts the signal) when the lease is no longer ours. */
  extend(ttlMs?: number): Promise<boolean>;
  /** Owner-checked delete. Never deletes another holder's lock. */
  release(): Promise<ReleaseOutcome>;
}

export type ReleaseOutcome = "released" | "not-owner";

export type AcquireResult =
  | { ok: true; lease: Lease }
  | { ok: false; reason: "busy"; key: string; waitedMs: number };

/** What withLock hands the task. `lease` is null when the kind's outage policy let it run lockless. */
export interface LockContext {
  lease: Lease | null;
  /** Aborts when the lease is lost; the task must stop at its next step and not commit. */
  signal: AbortSignal;
}

export type LockOutcome<T> =
  | { status: "ok"; value: T; fence: number | null; degraded: boolean }
  | { status: "busy" }
  | { status: "unavailable" }
  | { status: "skipped" };

export interface WithLockOptions extends AcquireOptions {
  maxRenewals?: number;
  maxHoldMs?: number;
}

/**
 * The few Redis commands the lock manager sends. An ioredis `Redis` (5 or 6) fits as it is; any
 * client with these methods does. Scripts run EVAL/EVALSHA (SET, GET, INCR, PEXPIRE, PTTL, TIME,
 * ZADD, ZREM, ZPOPMIN, DEL, PUBLISH inside), strict mode sends WAIT.
 */
export interface LockRedisClient {
  evalsha(sha: string, numKeys: number, ...keysAndArgs: (string | number)[]): Promise<unknown>;
  eval(script: string, numKeys: number, ...keysAndArgs: (string | number)[]): Promise<unknown>;
  wait(replicas: number, timeoutMs: number): Promise<number>;
  /** Opens the subscriber connection when none is given (ioredis `Redis#duplicate`). */
  duplicate(override?: { enableOfflineQueue?: boolean; connectionName?: string }): LockSubscriberClient;
  /** `close`: the connection dropped, so no lease can be trusted until renewed. */
  on(event: "close", listener: () => void): unknown;
  off(event: "close", listener: () => void): unknown;
}

/** The subscriber connection: this manager's channel only. */
export interface LockSubscriberClient {
  subscribe(...channels: string[]): Promise<unknown>;
  unsubscribe(...channels: string[]): Promise<unknown>;
  on(event: "message", listener: (channel: string, message: string) => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  off(event: "message", listener: (channel: string, message: string) => void): unknown;
  disconnect(): void;
}

export interface LockManagerOptions {
  /** Commands: EVALSHA, WAIT (an ioredis Redis; for a Cluster client pass `subscriber` too). */
  redis: LockRedisClient;
  /**
   * A second connection used only to SUBSCRIBE to this manager's channel (one per manager,
   * whatever the number of waiters or keys). Default: `redis.duplicate()`, opened on the first wait.
   */
  subscriber?: LockSubscriberClient;
  /** Environment and bot/tenant, e.g. "prod:shopbot". */
  namespace: string;
  kinds: Record<string, LockKindConfig>;
  /** Key for HMAC-hashing personal ids in lock keys. */
  hashKey: string;
  registry?: Registry;
  logger?: LockLogger;
  /** Any one Redis command longer than this counts as a failure (ms). */
  commandTimeoutMs?: number;
  breaker?: { failureThreshold: number; coolDownMs: number };
  /** Strict mode for replicated Redis: WAIT for this many replicas after acquiring. */
  replication?: { replicas: number; timeoutMs: number };
  /** TTL bounds every ttlMs must respect (default 100 ms .. 10 min). */
  ttlBounds?: { minMs: number; maxMs: number };
  /**
   * How long before its estimated expiry a lease counts as lost: its signal aborts then, unless a
   * renewal landed. Default: ttl/10 + 5 ms.
   */
  safetyMarginMs?: number;
  /** How long an idle resource's fence counter is kept (ms, default 1 h); see scripts/acquire.lua. */
  fenceRetentionMs?: number;
  /** Randomised backoff of waiters between re-checks when no release was heard (ms). */
  backoff?: { baseMs: number; maxMs: number };
}

/** What a manager holds right now; tests use it to prove nothing is left behind. */
export interface LockStats {
  /** Callers waiting for a lock. */
  waiters: number;
  /** Release channels the shared subscriber listens to (one per key with local waiters). */
  subscriptions: number;
  /**
   * Timers of waits and leases: re-checks, expiry guards, watchdogs. (Command timeouts share one
   * sweep timer that stops by itself once no command is in flight; see `commandsInFlight`.)
   */
  timers: number;
  /** Leases acquired and not yet released or lost. */
  leases: number;
  /** Redis commands sent and not answered (nor timed out) yet. */
  commandsInFlight: number;
  /** Whether the circuit breaker fails calls fast right now. */
  breaker: "closed" | "open" | "half-open";
}

/** The subset of a pino logger the lock module uses. */
export interface LockLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface LockManager {
  acquire(resource: LockResource, options?: AcquireOptions): Promise<AcquireResult>;
  withLock<T>(resource: LockResource, fn: (ctx: LockContext) => Promise<T>, options?: WithLockOptions): Promise<LockOutcome<T>>;
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
