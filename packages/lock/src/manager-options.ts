// What a lock manager is made with (its Redis connections, options and logger) and what it
// reports about itself; part of the public contract beside types.ts.
import type { Registry } from "prom-client";
import type { LockKindConfig } from "./types.ts";

/**
 * The few Redis commands the lock manager sends. An ioredis `Redis` (5 or 6) fits as it is; any
 * client with these methods does. Scripts run EVAL/EVALSHA (SET, GET, INCR, PEXPIRE, PTTL, TIME,
 * ZADD, ZREM, ZPOPMIN, DEL, PUBLISH inside), strict mode sends WAIT.
 *
 * @example
 * const redis: LockRedisClient = createRedis({ url, commandTimeoutMs: 500 }); // @orderbot/platform
 */
export interface LockRedisClient {
  evalsha(sha: string, numKeys: number, ...keysAndArgs: (string | number)[]): Promise<unknown>;
  eval(script: string, numKeys: number, ...keysAndArgs: (string | number)[]): Promise<unknown>;
  wait(replicas: number, timeoutMs: number): Promise<number>;
  /** Opens the subscriber connection when none is given (ioredis `Redis#duplicate`). */
  duplicate(override?: {
    enableOfflineQueue?: boolean;
    connectionName?: string;
  }): LockSubscriberClient;
  /** `close`: the connection dropped, so no lease can be trusted until renewed. */
  on(event: "close", listener: () => void): unknown;
  off(event: "close", listener: () => void): unknown;
}

/**
 * The subscriber connection: this manager's channel only.
 *
 * @example
 * createLockManager({ ...options, subscriber: new Redis(url) }); // required with a Cluster client
 */
export interface LockSubscriberClient {
  subscribe(...channels: string[]): Promise<unknown>;
  unsubscribe(...channels: string[]): Promise<unknown>;
  on(event: "message", listener: (channel: string, message: string) => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  off(event: "message", listener: (channel: string, message: string) => void): unknown;
  disconnect(): void;
}

/**
 * Everything a manager needs, injected.
 *
 * @example
 * createLockManager({ redis, namespace: "prod:shopbot", hashKey, kinds, registry, logger, commandTimeoutMs: 500 });
 */
export interface LockManagerOptions {
  /** Commands: EVALSHA, WAIT (an ioredis Redis; for a Cluster client pass `subscriber` too). */
  redis: LockRedisClient;
  /**
   * A second connection used only to SUBSCRIBE to this manager's channel (one per manager,
   * whatever the number of waiters or keys). Default: `redis.duplicate()`, opened the first time a wait finds a lock taken.
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
  /** How long a fence counter lives after the last acquisition (ms, default 1 h); see scripts/fence.lua. */
  fenceRetentionMs?: number;
  /** Randomised backoff of waiters between re-checks when no release was heard (ms). */
  backoff?: { baseMs: number; maxMs: number };
}

/**
 * What a manager holds right now; tests use it to prove nothing is left behind.
 *
 * @example
 * expect(locks.stats()).toMatchObject({ waiters: 0, timers: 0, leases: 0 });
 */
export interface LockStats {
  /** Callers waiting for a lock. */
  waiters: number;
  /** Release channels the shared subscriber listens to (one per key with local waiters). */
  subscriptions: number;
  /**
   * Timers of waits and leases: re-checks, expiry guards, watchdogs. (Command timeouts share one
   * sweep timer that stops by itself once no command is in flight, see `commandsInFlight`; the
   * subscription's own timeout ends with the SUBSCRIBE.)
   */
  timers: number;
  /** Leases acquired and not yet released or lost. */
  leases: number;
  /** Redis commands sent and not answered (nor timed out) yet. */
  commandsInFlight: number;
  /** Whether the circuit breaker fails calls fast right now. */
  breaker: "closed" | "open" | "half-open";
}

/**
 * The subset of a pino logger the lock module uses. Lines carry kind, masked id and request id.
 *
 * @example
 * createLockManager({ ...options, logger: pino().child({ module: "lock" }) });
 */
export interface LockLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}
