// createLockManager: the one entry point. Acquire is one script round trip; a caller that has to
// wait joins the key's line and sleeps until a release is heard (or its re-check timer fires).
import { randomBytes } from "node:crypto";
import { Registry } from "prom-client";
import { Backoff } from "./backoff.ts";
import { CircuitBreaker } from "./breaker.ts";
import { CommandRunner } from "./commands.ts";
import { checkTtl, MAX_WAIT_MS, resolveConfig, type ResolvedConfig } from "./config.ts";
import { LockUnavailableError } from "./errors.ts";
import { inboxPrefix, siblingKeys, type LockKeys } from "./keys.ts";
import { Requests, type LockRequest } from "./requests.ts";
import { LockLease, type LeaseHost } from "./lease.ts";
import { createLockMetrics, type KindMetrics } from "./metrics.ts";
import { acquireScript, extendScript, releaseScript, tryScript } from "./scripts.ts";
import { newToken } from "./tokens.ts";
import { Timers } from "./timers.ts";
import type {
  AcquireOptions,
  AcquireResult,
  LockContext,
  LockLogger,
  LockManager,
  LockManagerOptions,
  LockOutcome,
  LockRedisClient,
  LockResource,
  LockStats,
  OutagePolicy,
  WithLockOptions,
} from "./types.ts";
import { WaitQueues } from "./wait-queues.ts";
import type { Waiter } from "./waiter.ts";
import { withLock } from "./with-lock.ts";

type Attempt = { lease: LockLease; pttl?: undefined } | { lease?: undefined; pttl: number };
/** acquire.lua and try.lua: `{1, fence}` or `{1, fence, pttl}` when acquired, `{0, pttl}` or `{0, pttl, server ms}` when taken. */
type AcquireReply = [number, number, number?];

/** How many contended keys a manager remembers. */
const CONTENDED_KEYS = 1024;

const silent: LockLogger = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * Creates a lock manager on a Redis client (ioredis `Redis`; a Cluster client works too).
 *
 * @example
 * const locks = createLockManager({
 *   redis, namespace: "prod:shopbot", hashKey: config.lockHashKey, registry, logger,
 *   kinds: {
 *     order: { ttlMs: 5000, waitMs: 2000, outage: "refuse" },
 *     checkout: { ttlMs: 5000, waitMs: 0, outage: "refuse", personal: true },
 *   },
 * });
 * const outcome = await locks.withLock({ kind: "order", id: orderId }, async ({ signal }) => pay(orderId, signal));
 */
export function createLockManager(options: LockManagerOptions): LockManager {
  return new RedisLockManager(options);
}

class RedisLockManager implements LockManager {
  readonly #config: ResolvedConfig;
  readonly #redis: LockRedisClient;
  readonly #logger: LockLogger;
  readonly #timers = new Timers();
  readonly #metrics = new Map<string, KindMetrics>();
  readonly #requests: Requests;
  /** Held leases by token. */
  readonly #leases = new Map<string, LockLease>();
  readonly #runner: CommandRunner;
  readonly #queues: WaitQueues;
  readonly #host: LeaseHost;
  /** Names this manager in the lines of the locks it waits for, and its channel. */
  readonly #id = randomBytes(12).toString("base64url");
  readonly #inbox: string;
  /** Keys whose last wait here found them taken, oldest first (see #joinsLineAtOnce). */
  readonly #contended = new Set<string>();
  #closed = false;

  constructor(options: LockManagerOptions) {
    this.#config = resolveConfig(options);
    this.#redis = options.redis;
    this.#logger = options.logger ?? silent;
    const metricsFor = createLockMetrics(options.registry ?? new Registry());
    for (const kind of this.#config.kinds.keys()) this.#metrics.set(kind, metricsFor(kind));
    this.#requests = new Requests(this.#config, this.#metrics);

    const breaker = new CircuitBreaker(this.#config.breaker, (state) => {
      for (const metrics of this.#metrics.values()) metrics.breakerOpen(state === "open");
      const log = state === "open" ? this.#logger.warn : this.#logger.info;
      log.call(this.#logger, { breaker: state }, `lock Redis circuit breaker ${state}`);
    });
    this.#runner = new CommandRunner(breaker, this.#config.commandTimeoutMs, this.#redis);
    this.#inbox = inboxPrefix(this.#config.namespace);
    this.#queues = new WaitQueues(this.#inbox + this.#id, {
      subscriber: options.subscriber,
      connect: () => {
        const subscriber = this.#redis.duplicate({
          enableOfflineQueue: true,
          connectionName: "orderbot-lock-subscriber",
        });
        // Ours to watch: while it is down, waiters fall back to their re-check timers.
        subscriber.on("error", (error) =>
          this.#logger.debug({ err: error.message }, "lock subscriber connection error"),
        );
        return subscriber;
      },
      timers: this.#timers,
      timeoutMs: this.#config.commandTimeoutMs,
      unclaimed: (lockKey, token) => this.#unclaimed(lockKey, token),
    });
    this.#host = this.#leaseHost();
    this.#redis.on("close", this.#onConnectionLost);
  }

  async acquire(resource: LockResource, options: AcquireOptions = {}): Promise<AcquireResult> {
    const request = this.#requests.request(resource, options);
    const started = performance.now();
    try {
      this.#throwIfClosed(request.kind);
      request.signal?.throwIfAborted();
      // One round trip takes a free lock, and most locks are free when asked for: try once, and
      // if the lock was taken, wait in line while time is left (or join it at once: see
      // #joinsLineAtOnce).
      const deadline = started + request.waitMs;
      const joinAtOnce = this.#joinsLineAtOnce(request);
      let lease = joinAtOnce ? undefined : (await this.#attempt(request)).lease;
      if (!lease && (joinAtOnce || performance.now() < deadline)) {
        this.#throwIfClosed(request.kind); // closed while the try was on its way
        lease = await this.#wait(request, deadline);
      }
      const waited = performance.now() - started;
      request.metrics.acquired(lease ? "acquired" : "busy");
      request.metrics.waited(waited / 1000);
      if (lease) return { ok: true, lease };
      return { ok: false, reason: "busy", key: request.keys.lock, waitedMs: Math.round(waited) };
    } catch (error) {
      request.metrics.acquired(request.signal?.aborted ? "aborted" : "unavailable");
      throw error;
    }
  }

  withLock<T>(
    resource: LockResource,
    fn: (ctx: LockContext) => Promise<T>,
    options: WithLockOptions = {},
  ): Promise<LockOutcome<T>> {
    return withLock(this, resource, fn, options, {
      kindConfig: (kind) => this.#requests.kind(kind),
      metrics: (kind) => this.#requests.metricsOf(kind),
      timers: this.#timers,
      logger: this.#logger,
    });
  }

  keyFor(resource: LockResource): string {
    return this.#requests.keys(resource).lock;
  }

  policyFor(kind: string): OutagePolicy {
    return this.#requests.kind(kind).outage;
  }

  stats(): LockStats {
    return {
      waiters: this.#queues.waiterCount,
      subscriptions: this.#queues.subscriptionCount,
      timers: this.#timers.count,
      leases: this.#leases.size,
      commandsInFlight: this.#runner.inFlight,
      breaker: this.#runner.breakerState,
    };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#redis.off("close", this.#onConnectionLost);
    this.#queues.close(
      new LockUnavailableError("the lock manager was closed", { reason: "closed" }),
    );
  }

  // ------------------------------------------------------------------ acquiring

  #throwIfClosed(kind: string): void {
    if (this.#closed)
      throw new LockUnavailableError("the lock manager was closed", { reason: "closed", kind });
  }

  /**
   * Whether a caller that may wait skips the plain try and joins the line at once: when others of
   * this process already wait for the key (it must not pass them), when its last wait here found
   * the key taken (a contended key is taken again when asked for: the try would cost a round trip
   * for nothing), or when it can be cancelled (only a wait is raced against its signal).
   */
  #joinsLineAtOnce(request: LockRequest): boolean {
    if (request.waitMs === 0) return false;
    const key = request.keys.lock;
    return request.signal !== undefined || this.#queues.waiting(key) || this.#contended.has(key);
  }

  /** Remembers that a wait for `key` found it taken, keeping the last CONTENDED_KEYS keys. */
  #rememberContended(key: string): void {
    if (this.#contended.has(key)) return;
    if (this.#contended.size >= CONTENDED_KEYS)
      this.#contended.delete(this.#contended.values().next().value!);
    this.#contended.add(key);
  }

  /**
   * Waits in line, behind the callers of this process already waiting for the key. Only the first
   * of them asks Redis: at once, then when the waiter ahead leaves, or when its re-check timer
   * fires (randomised backoff, never later than the holder's remaining TTL, so an expired holder
   * is noticed without any message). Its attempts keep this manager in the key's line in Redis
   * with a ticket carrying the waiter's token, so a release elsewhere sets the lock to that token
   * and tells us: the lease exists before the message arrives.
   */
  async #wait(request: LockRequest, deadline: number): Promise<LockLease | undefined> {
    const waiter = this.#queues.join(request.keys.lock, newToken(), request.signal);
    let backoff: Backoff | undefined; // only a wait that sleeps needs one
    let lease: LockLease | undefined;
    try {
      let ask = true;
      let recheckAt = Infinity; // when the holder's lease runs out, as last seen
      for (;;) {
        if (waiter.handover) return (lease = await this.#handedLease(request, waiter));
        if (ask && this.#queues.isFirst(waiter)) {
          waiter.takeNotified();
          let result: Attempt;
          try {
            // Without a signal only close() can cancel, and it may let a round trip finish.
            result = await (request.signal
              ? this.#attemptWhileWaiting(request, waiter, deadline)
              : this.#attempt(request, waiter, deadline));
          } catch (error) {
            // Abandoned or timed out, it may still have run and put us in line.
            waiter.inLine ||=
              waiter.cancelled ||
              (error instanceof LockUnavailableError && error.reason === "timeout");
            throw error;
          }
          if (result.lease) {
            if (!waiter.inLine) this.#contended.delete(request.keys.lock); // free at the first ask
            return (lease = result.lease);
          }
          this.#rememberContended(request.keys.lock);
          waiter.inLine = true; // busy: the script put this manager in line, with our ticket
          if (!this.#queues.listening && !waiter.subscribed) {
            // The first wait of this manager: subscribe its channel, then ask once more, since
            // a hand-off published before the subscription took effect went unheard (the lock
            // is then already ours, and the attempt says so).
            waiter.subscribed = true;
            if (await waiter.race(this.#queues.listen())) continue;
          }
          if (waiter.takeNotified()) continue; // the waiter ahead left while we asked
          recheckAt = result.pttl >= 0 ? performance.now() + result.pttl + 1 : Infinity;
        }
        const now = performance.now();
        const left = deadline - now;
        if (left <= 0) {
          if (waiter.handover) continue; // handed to us while the last attempt's reply was on its way
          return undefined;
        }
        backoff ??= new Backoff(this.#config.backoff);
        const delay = this.#queues.isFirst(waiter)
          ? Math.min(backoff.next(), recheckAt - now, left)
          : left;
        ask = (await waiter.sleep(delay)) !== "handed";
      }
    } finally {
      const wasLast = this.#queues.leave(waiter);
      const leaveLine = wasLast && waiter.inLine;
      if (!lease && (leaveLine || waiter.handover)) {
        // Leaving without the lock: step out of line if nobody here waits any more, and pass on
        // the lock if a release handed it to us meanwhile (the script checks our token).
        this.#giveBack(request.keys, waiter.token, leaveLine);
      }
    }
  }

  /** The lease a release handed to `waiter` (its lock already set to the waiter's token). */
  async #handedLease(request: LockRequest, waiter: Waiter): Promise<LockLease> {
    const { fence, ttlMs, serverMs } = waiter.handover!;
    // When it started, in our clock: Redis's time of the hand-off, mapped through what our last
    // attempt saw (sent at lastSentAt, Redis said lastServerMs — so the clocks differ by at least
    // lastSentAt - lastServerMs). An early estimate only makes the lease look shorter, never longer.
    // (Without a busy reply seen — the message came first — the first attempt's sending is the
    // safe bound: no ticket of this waiter, so no hand-off to it, is older.)
    const startedAt = waiter.lastSentAt
      ? Math.min(Date.now(), serverMs - waiter.lastServerMs + waiter.lastSentAt)
      : waiter.firstSentAt;
    const lease = this.#newLease(request, waiter.token, fence, startedAt, ttlMs);
    if (this.#config.replication) await this.#confirmHandover(lease);
    return lease;
  }

  /** The first waiter's attempt. If the wait is cancelled meanwhile, a lock that comes late is given back. */
  async #attemptWhileWaiting(
    request: LockRequest,
    waiter: Waiter,
    deadline: number,
  ): Promise<Attempt> {
    const attempt = this.#attempt(request, waiter, deadline);
    try {
      return await waiter.race(attempt);
    } catch (error) {
      // Nobody will take a lock that comes late: give it back quietly (the wait's own give-back
      // may have released it already, and a release would then count as not ours).
      if (waiter.cancelled)
        attempt.then(
          (late) => late.lease && this.#discard(late.lease),
          () => {},
        );
      throw error;
    }
  }

  /**
   * One round trip: without a waiter, the try script (take the lock if it is free); for a waiter,
   * the acquire script, which also keeps this manager in the key's line until the waiter's
   * `deadline`. (A promise chain, not an async function: this runs on every acquire.)
   */
  #attempt(request: LockRequest, waiter?: Waiter, deadline = 0): Promise<Attempt> {
    const { keys, kind, metrics, ttlMs } = request;
    const token = waiter ? waiter.token : newToken();
    const sentAt = Date.now();
    if (waiter && !waiter.firstSentAt) waiter.firstSentAt = sentAt;
    const retentionMs = this.#config.fenceRetentionMs;
    const sent = waiter
      ? this.#runner.script("acquire", metrics, kind, acquireScript, [
          keys.lock,
          keys.fence,
          keys.queue,
          keys.tickets,
          token,
          ttlMs,
          retentionMs,
          this.#id,
          Math.max(1, Math.ceil(deadline - performance.now())), // ms it will still wait
          MAX_WAIT_MS + ttlMs,
          // Taking a free lock, the script leaves the line only if this manager may be in it:
          // the first attempt of a lone waiter skips that (a stale place left by a failed
          // give-back is skipped by its deadline, or passed on by whoever it is handed to).
          waiter.inLine ? 1 : 0,
        ])
      : this.#runner.script("acquire", metrics, kind, tryScript, [
          keys.lock,
          keys.fence,
          token,
          ttlMs,
          retentionMs,
        ]);
    return sent.then(
      (reply) => this.#attempted(request, waiter, token, sentAt, reply as AcquireReply),
      (error: unknown) => {
        // Timed out: Redis may have run the acquire, or still will. A give-back sent now, on the
        // same connection, runs after it and releases whatever it took for a caller who is gone.
        if (error instanceof LockUnavailableError && error.reason === "timeout")
          this.#giveBack(keys, token, false);
        throw error;
      },
    );
  }

  /** What an attempt's reply means: the lease (in strict mode once replicas have it), or how long the lock stays taken. */
  #attempted(
    request: LockRequest,
    waiter: Waiter | undefined,
    token: string,
    sentAt: number,
    reply: AcquireReply,
  ): Attempt | Promise<Attempt> {
    if (reply[0] !== 1) {
      if (waiter && reply[2] !== undefined) {
        waiter.lastSentAt = sentAt;
        waiter.lastServerMs = reply[2];
      }
      return { pttl: reply[1] };
    }
    // A lock handed to this token earlier says how long it has left; one we just set, its full TTL.
    const handed = reply[2] !== undefined;
    const ttlMs = request.ttlMs;
    const startedAt = handed ? sentAt + reply[2]! - ttlMs : sentAt;
    const lease = this.#newLease(request, token, reply[1], startedAt, ttlMs);
    if (!this.#config.replication) return { lease };
    return (handed ? this.#confirmHandover(lease) : this.#replicate(lease)).then(() => ({ lease }));
  }

  #newLease(
    request: LockRequest,
    token: string,
    fence: number,
    startedAt: number,
    ttlMs: number,
  ): LockLease {
    const lease = new LockLease(
      request.keys,
      request.kind,
      token,
      fence,
      startedAt,
      ttlMs,
      request.metrics,
      request.requestId,
      this.#host,
    );
    this.#leases.set(token, lease);
    return lease;
  }

  /**
   * Strict mode for a lock handed over by another client's release: WAIT covers only this
   * connection's own writes, so renew the lease once (a write of ours, after the hand-off in the
   * replication stream) before waiting for the replicas.
   */
  async #confirmHandover(lease: LockLease): Promise<void> {
    let renewed = false;
    try {
      renewed = await lease.renew(lease.ttlMs);
    } finally {
      if (!renewed) await lease.release().catch(() => "not-owner");
    }
    if (!renewed) {
      throw new LockUnavailableError(
        "a lock handed to this waiter could not be confirmed (it was lost)",
        {
          reason: "replication",
          kind: lease.kind,
        },
      );
    }
    await this.#replicate(lease);
  }

  /** Strict mode: the lock counts only once enough replicas have it, else it is given back. */
  async #replicate(lease: LockLease): Promise<void> {
    const { replicas, timeoutMs } = this.#config.replication!;
    let acknowledged = 0;
    try {
      acknowledged = await this.#runner.run(
        "wait",
        lease.metrics,
        lease.kind,
        () => this.#redis.wait(replicas, timeoutMs),
        timeoutMs + this.#config.commandTimeoutMs,
      );
    } finally {
      if (acknowledged < replicas) await lease.release().catch(() => "not-owner");
    }
    if (acknowledged < replicas) {
      throw new LockUnavailableError(
        `only ${acknowledged} of ${replicas} replicas acknowledged the lock within ${timeoutMs} ms`,
        { reason: "replication", kind: lease.kind },
      );
    }
  }

  /**
   * Gives back a lock set to `token` that nobody here will use — an acquire that succeeded after
   * we gave up on it, or a hand-off to a waiter that left — passing it to the next waiter in line;
   * with `leaveLine`, also takes this manager out of the key's line. Owner-checked, so harmless
   * when the lock is no longer (or never was) ours. Best effort: if it fails, the lock ends with
   * its TTL and our place in line with the waiter's deadline.
   */
  #giveBack(
    keys: Pick<LockKeys, "lock" | "fence" | "queue" | "tickets">,
    token: string,
    leaveLine: boolean,
  ): void {
    const args = [token, this.#inbox, this.#config.fenceRetentionMs];
    if (leaveLine) args.push(this.#id);
    releaseScript
      .run(this.#redis, [keys.lock, keys.fence, keys.queue, keys.tickets], args)
      .catch(() => {});
  }

  /** A lease nobody was given: stop tracking it and give its lock back (owner-checked, so harmless if gone). */
  #discard(lease: LockLease): void {
    this.#leases.delete(lease.token);
    this.#giveBack(lease.keys, lease.token, false);
  }

  /** A hand-off message no waiter of ours claims: unless a lease of ours holds that token, pass it on. */
  #unclaimed(lockKey: string, token: string): void {
    if (this.#leases.has(token)) return; // our waiter's own attempt found it first
    this.#giveBack(siblingKeys(lockKey), token, false);
  }

  // ------------------------------------------------------------------ leases

  /** The connection dropped: no lease can be renewed or trusted any more. */
  readonly #onConnectionLost = () => {
    for (const lease of [...this.#leases.values()]) lease.lose("connection-lost");
  };

  #leaseHost(): LeaseHost {
    const runner = this.#runner;
    return {
      extend: async (lease, ttlMs) =>
        (await runner.script("extend", lease.metrics, lease.kind, extendScript, [
          lease.key,
          lease.token,
          ttlMs,
        ])) === 1,
      release: ({ keys, token, metrics, kind }) =>
        runner.script("release", metrics, kind, releaseScript, [
          keys.lock,
          keys.fence,
          keys.queue,
          keys.tickets,
          token,
          this.#inbox,
          this.#config.fenceRetentionMs,
        ]),
      forget: (lease) => this.#leases.delete(lease.token),
      setTimer: (fn, ms) => this.#timers.set(fn, ms),
      clearTimer: (handle) => this.#timers.clear(handle),
      checkTtl: (ttlMs) => checkTtl(ttlMs, this.#config.ttlBounds),
      safetyMarginMs: this.#config.safetyMarginMs,
      warn: (lease, fields, message) =>
        this.#logger.warn(
          {
            kind: lease.kind,
            id: lease.keys.maskedId,
            fence: lease.fence,
            requestId: lease.requestId,
            ...fields,
          },
          message,
        ),
    };
  }
}
