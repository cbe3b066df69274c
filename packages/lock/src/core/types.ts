// The public contract: what callers pass and get back, the errors, and what a layer plugs into.
import type { Lease } from "./lease.ts";
import type { LockManager, RedisLockManager } from "./manager.ts";
import type { LockRequest } from "./requests.ts";

/** With the outage layer, what withLock does while Redis is down: refuse, run lockless, or skip. */
export type OutagePolicy = "refuse" | "proceed-db-only" | "skip";

/** One kind of lock. @example { ttlMs: 5000, waitMs: 2000, outage: "refuse", maxHoldMs: 30_000 } */
export interface LockKindConfig {
  ttlMs: number; // lease length: the hold-time p99 plus a margin
  waitMs: number; // default wait for a held lock; 0 = try once
  outage?: OutagePolicy; // the outage layer's (layers/outage-policies.ts)
  personal?: boolean; // the id names a person: it goes into the key as an HMAC, never raw
  maxRenewals?: number; // withLock's watchdog renews at most this many times ...
  maxHoldMs?: number; // ... or up to this total hold time
  fenceRetentionMs?: number; // how long the fence counter outlives the last acquisition (1 h)
}

export type LockResource = { kind: string; id: string | number | bigint };

/** Per call: override the kind's TTL and wait, give up on a signal, tag the log lines.
 * @example { waitMs: 500, signal: AbortSignal.timeout(1000), requestId: "update-1001" } */
export interface AcquireOptions {
  ttlMs?: number;
  waitMs?: number;
  /** Ends a wait at once; aborted while withLock's task runs, it aborts the lease signal and stops
   * the renewals, and the lock is released when the task returns (or expires before). */
  signal?: AbortSignal;
  /** Correlation id for the lock's log lines (the update id, the job run). Never a secret. */
  requestId?: string;
}

/** withLock's: AcquireOptions, and caps on the watchdog's renewals. @example { maxHoldMs: 30_000 } */
export type WithLockOptions = AcquireOptions & { maxRenewals?: number; maxHoldMs?: number };

export type { Lease, LockManager, LockRequest };

export type AcquireResult =
  { ok: true; lease: Lease } | { ok: false; reason: "busy"; key: string; waitedMs: number };
/** `lease` is null when the outage policy let the task run lockless. */
export type LockContext = { lease: Lease | null; signal: AbortSignal };
/** `lost`: why the lease was lost while the task ran (null: held to the end, or no lease).
 * @example if (outcome.status === "ok" && outcome.lost) log.warn({ lost: outcome.lost }, "ran past its lock") */
export type LockOutcome<T> =
  | {
      status: "ok";
      value: T;
      fence: number | null;
      degraded: boolean;
      lost: LeaseLossReason | null;
    }
  | { status: "busy" | "unavailable" | "skipped" };

type Held = "waiters" | "subscriptions" | "timers" | "leases" | "commandsInFlight";
export type LockStats = Record<Held, number> & { breaker: "closed" | "open" | "half-open" };

/** The Redis calls the lock makes (an ioredis `Redis` or `Cluster` fits). */
export interface LockRedisClient {
  evalsha(sha: string, numKeys: number, ...keysAndArgs: (string | number)[]): Promise<unknown>;
  eval(script: string, numKeys: number, ...keysAndArgs: (string | number)[]): Promise<unknown>;
  /** `close`: the connection dropped, so no lease can be trusted until renewed. */
  on(event: "close", listener: () => void): unknown;
  off(event: "close", listener: () => void): unknown;
  duplicate?(override?: { enableOfflineQueue?: boolean; connectionName?: string }): unknown; // layers' own connections
}

type LogLine = (obj: object, msg?: string) => void;
export type LockLogger = Record<"debug" | "info" | "warn" | "error", LogLine>;

export interface LockManagerOptions {
  redis: LockRedisClient;
  namespace: string; // environment and bot, e.g. "prod:shopbot": two bots never share a key
  kinds: Record<string, LockKindConfig>;
  hashKey: string; // at least 16 characters; keys the HMAC of personal ids
  logger?: LockLogger;
  commandTimeoutMs?: number; // a slower Redis command fails as "timeout" (default 1000)
  /** Monotonic milliseconds for every deadline (default performance.now); never the wall clock. */
  clock?: () => number;
  layers?: LockLayers;
}

/** Invalid input, thrown before any Redis command: `field` names the option at fault.
 * @example catch (e) { if (e instanceof LockInputError) reply(`bad ${e.field}`); } */
export class LockInputError extends Error {
  override name = "LockInputError";
  readonly field: string;
  constructor(message: string, field: string) {
    super(message);
    this.field = field;
  }
}

export type UnavailableReason =
  "connection" | "timeout" | "oom" | "breaker-open" | "replication" | "closed";
/** Redis could not serve the call (or the manager was closed).
 * @example catch (e) { if (e instanceof LockUnavailableError) return "try later"; throw e; } */
export class LockUnavailableError extends Error {
  override name = "LockUnavailableError";
  readonly reason: UnavailableReason;
  readonly kind?: string;
  constructor(message: string, reason: UnavailableReason, kind?: string, cause?: unknown) {
    super(message, { cause });
    [this.reason, this.kind] = [reason, kind];
  }
}

export type LeaseLossReason =
  "expired" | "not-owner" | "renewal-failed" | "connection-lost" | "renewal-capped";
/** The reason a lease's signal aborts with: stop, and commit nothing that relies on the lock.
 * @example signal.addEventListener("abort", () => log(signal.reason instanceof LeaseLostError)) */
export class LeaseLostError extends Error {
  override name = "LeaseLostError";
  readonly key: string;
  readonly reason: LeaseLossReason;
  constructor(key: string, reason: LeaseLossReason, cause?: unknown) {
    super(`lock lease lost (${reason})`, { cause });
    [this.key, this.reason] = [key, reason];
  }
}

/** A layer, made by its factory, is attached to a manager, its host, when the manager is made. */
export type Layer<T> = (host: RedisLockManager) => T;

export interface LockLayers {
  waiting?: Layer<WaitingLayer>;
  replication?: Layer<ReplicationLayer>;
  breaker?: Layer<BreakerLayer>;
  outage?: Layer<OutageLayer>;
  metrics?: Layer<{ forKind(kind: string): KindMetrics }>;
}

export interface WaitingLayer {
  /** Waits until `deadline` (the host's clock): the lease, or undefined when still busy. */
  wait(request: LockRequest, deadline: number): Promise<Lease | undefined>;
  /** Sends the release of `token` (1 released, 0 not ours) instead of the core's script. */
  release(lock: string, token: string, retentionMs: number): Promise<unknown>;
  readonly waiters: number;
  readonly subscriptions: number;
  close(reason: unknown): void;
}

/** Resolves once replicas have the lock; otherwise releases it and rejects. */
export type ReplicationLayer = {
  confirm(lease: Lease, handedOver: boolean): Promise<void>;
  close?(): void; // the manager closes: so does a connection of the layer's own
};

/** Asked before every command (false: refused at once); told whether Redis answered. */
export type BreakerLayer = { allow(): boolean; answered(ok: boolean): void } & {
  readonly state: LockStats["breaker"];
};

/** withLock's outcome when Redis is unreachable (never when closed), by the kind's policy. */
export type OutageLayer = <R>(
  kind: string,
  error: LockUnavailableError,
  lockless: () => Promise<R>,
  requestId?: string,
) => Promise<LockOutcome<R>>;

export type LockCommand = "acquire" | "release" | "extend" | "wait";

/** Per-kind hooks of the metrics layer; without it they do nothing. */
export interface KindMetrics {
  acquired(outcome: "acquired" | "busy" | "unavailable" | "aborted", waitedSeconds?: number): void;
  held(seconds: number): void;
  renewed(outcome: "ok" | "lost" | "error"): void;
  leaseLost(): void;
  releaseNotOwner(): void;
  command(command: LockCommand, seconds: number): void;
  breakerOpen(open: boolean): void;
  degraded(policy: string): void;
}
