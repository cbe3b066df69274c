// The public contract: what callers pass and get back, the errors, and what a layer plugs into.
import type { RedisLockManager } from "./manager.ts";
import type { LockRequest } from "./requests.ts";

/** What withLock does when Redis is out of reach: refuse the work, run it lockless, or skip it. */
export type OutagePolicy = "refuse" | "proceed-db-only" | "skip";

/** One kind of lock, e.g. `{ ttlMs: 5000, waitMs: 2000, outage: "refuse", maxHoldMs: 30_000 }`. */
export interface LockKindConfig {
  ttlMs: number; // lease length: the hold-time p99 plus a margin
  waitMs: number; // default wait for a held lock; 0 = try once
  outage: OutagePolicy;
  personal?: boolean; // the id names a person: it goes into the key as an HMAC, never raw
  maxRenewals?: number; // withLock's watchdog renews at most this many times ...
  maxHoldMs?: number; // ... or up to this total hold time
  fenceRetentionMs?: number; // how long the fence counter outlives the last acquisition
}

export type LockResource = { kind: string; id: string | number | bigint };

export interface AcquireOptions {
  ttlMs?: number;
  waitMs?: number;
  /** Ends a wait at once; aborted while withLock's task runs, it aborts the lease and releases. */
  signal?: AbortSignal;
  /** Correlation id for the lock's log lines (the update id, the job run). Never a secret. */
  requestId?: string;
}

export type WithLockOptions = AcquireOptions & { maxRenewals?: number; maxHoldMs?: number };

/** A held lock. Pass `fence` with the writes it guards; stop when `signal` aborts. */
export interface Lease {
  readonly key: string; // {namespace:lock:kind:id}: a Cluster hash tag shared with its fence
  readonly kind: string;
  readonly token: string;
  readonly fence: number; // grows per key across holders and failovers (server clock floor)
  readonly signal: AbortSignal; // aborts when the lease is lost or about to expire unrenewed
  readonly acquiredAt: number;
  readonly ttlMs: number;
  readonly expiresAt: number;
  readonly abortsAt: number; // expiresAt less the safety margin: when the signal aborts
  readonly held: boolean;
  /** Renews for `ttlMs` (default: the lease's TTL) from now; false when the lock is not ours. */
  extend(ttlMs?: number): Promise<boolean>;
  release(): Promise<"released" | "not-owner">;
}

export type AcquireResult =
  { ok: true; lease: Lease } | { ok: false; reason: "busy"; key: string; waitedMs: number };
/** `lease` is null when the outage policy let the task run lockless. */
export type LockContext = { lease: Lease | null; signal: AbortSignal };
export type LockOutcome<T> =
  | { status: "ok"; value: T; fence: number | null; degraded: boolean }
  | { status: "busy" | "unavailable" | "skipped" };

export interface LockManager {
  acquire(resource: LockResource, options?: AcquireOptions): Promise<AcquireResult>;
  withLock<T>(
    resource: LockResource,
    fn: (ctx: LockContext) => Promise<T>,
    options?: WithLockOptions,
  ): Promise<LockOutcome<T>>;
  keyFor(resource: LockResource): string;
  policyFor(kind: string): OutagePolicy;
  /** Ends every wait; leases stay with their holders. */
  close(): Promise<void>;
  /** What it holds now (timers: of waits and leases, not of commands): nothing left behind. */
  stats(): LockStats;
}
type Held = "waiters" | "subscriptions" | "timers" | "leases" | "commandsInFlight";
export type LockStats = Record<Held, number> & { breaker: "closed" | "open" | "half-open" };

/** The Redis calls the lock makes (an ioredis `Redis` or `Cluster` fits). */
export interface LockRedisClient {
  evalsha(sha: string, numKeys: number, ...keysAndArgs: (string | number)[]): Promise<unknown>;
  eval(script: string, numKeys: number, ...keysAndArgs: (string | number)[]): Promise<unknown>;
  /** `close`: the connection dropped, so no lease can be trusted until renewed. */
  on(event: "close", listener: () => void): unknown;
  off(event: "close", listener: () => void): unknown;
  wait?(replicas: number, timeoutMs: number): Promise<number>; // strict replication
  duplicate?(override?: { enableOfflineQueue?: boolean; connectionName?: string }): unknown; // fair waiting
}

export type LockLogger = Record<
  "debug" | "info" | "warn" | "error",
  (obj: object, msg?: string) => void
>;

export interface LockManagerOptions {
  redis: LockRedisClient;
  namespace: string; // environment and bot, e.g. "prod:shopbot": two bots never share a key
  kinds: Record<string, LockKindConfig>;
  hashKey: string; // at least 16 characters; keys the HMAC of personal ids
  logger?: LockLogger;
  commandTimeoutMs?: number; // a slower Redis command fails as "timeout" (default 1000)
  ttlBounds?: { minMs: number; maxMs: number }; // of every TTL (default 100 ms .. 10 min)
  safetyMarginMs?: number; // a lease's signal aborts this long before expiry (ttl/10 + 5 ms)
  fenceRetentionMs?: number; // default fence counter retention (1 h)
  backoff?: { baseMs: number; maxMs: number }; // re-check delays of a wait (20 .. 500 ms)
  layers?: LockLayers;
}

/** Invalid input, thrown before any Redis command: `field` names the option at fault. */
export class LockInputError extends Error {
  override name = "LockInputError";
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
  }
}

export type UnavailableReason =
  "connection" | "timeout" | "oom" | "breaker-open" | "replication" | "closed";

/** Redis could not serve the call. withLock applies the kind's outage policy (not when closed). */
export class LockUnavailableError extends Error {
  override name = "LockUnavailableError";
  constructor(
    message: string,
    readonly reason: UnavailableReason,
    readonly kind?: string,
    cause?: unknown,
  ) {
    super(message, { cause });
  }
}

export type LeaseLossReason =
  "expired" | "not-owner" | "renewal-failed" | "connection-lost" | "renewal-capped";

/** The reason a lease's signal aborts with: stop, and commit nothing that relies on the lock. */
export class LeaseLostError extends Error {
  override name = "LeaseLostError";
  constructor(
    readonly key: string,
    readonly reason: LeaseLossReason,
    cause?: unknown,
  ) {
    super(`lock lease lost (${reason})`, { cause });
  }
}

// ------------------------------------------------------------------ layers

/**
 * A layer: made by its factory with its options, attached to a manager when it is created. The
 * manager is its host: `redis`, `logger`, `config`, `run` (one command under the timeout, the
 * breaker and the latency metric), `lease`, `holds`, `discard` and the counted timers.
 */
export type Layer<T> = (host: LayerHost) => T;
export type LayerHost = RedisLockManager;
export type { LockRequest };

export interface LockLayers {
  waiting?: Layer<WaitingLayer>;
  replication?: Layer<ReplicationLayer>;
  breaker?: Layer<BreakerLayer>;
  metrics?: Layer<{ forKind(kind: string): KindMetrics }>;
}

export type LockCommand = "acquire" | "release" | "extend" | "wait";

/** Per-kind hooks of the metrics layer; without it they do nothing. */
export interface KindMetrics {
  acquired(outcome: "acquired" | "busy" | "unavailable" | "aborted"): void;
  waited(seconds: number): void;
  held(seconds: number): void;
  renewed(outcome: "ok" | "lost" | "error"): void;
  leaseLost(): void;
  releaseNotOwner(): void;
  command(command: LockCommand, seconds: number): void;
  breakerOpen(open: boolean): void;
  degraded(policy: string): void;
}

/** Asked before every command; told whether Redis answered. */
export interface BreakerLayer {
  allow(): boolean;
  success(): void;
  failure(): void;
  readonly state: LockStats["breaker"];
}

/** Resolves once replicas have the lock; otherwise releases it and rejects. */
export type ReplicationLayer = { confirm(lease: Lease, handedOver: boolean): Promise<void> };

export interface WaitingLayer {
  /** Waits until `deadline` (performance.now() ms): the lease, or undefined when still busy. */
  wait(request: LockRequest, deadline: number): Promise<Lease | undefined>;
  /** Sends the release of `token` (1 released, 0 not ours) instead of the core's script. */
  release(lock: string, token: string, retentionMs: number): Promise<unknown>;
  readonly waiters: number;
  readonly subscriptions: number;
  close(reason: unknown): void;
}
