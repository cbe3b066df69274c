// createLockManager: the one entry point. Acquire is one script round trip; a caller that has to
// wait joins the key's line and sleeps until a release is heard (or its re-check timer fires).
import { randomBytes } from "node:crypto";
import { Registry } from "prom-client";
import { CircuitBreaker } from "./breaker.ts";
import { CommandRunner } from "./commands.ts";
import { checkTtl, resolveConfig, type ResolvedConfig } from "./config.ts";
import { LockUnavailableError } from "./errors.ts";
import { inboxPrefix, siblingKeys, type LockKeys } from "./keys.ts";
import { Requests, type LockRequest } from "./requests.ts";
import { leaseHost, LockLease, type LeaseHost } from "./lease.ts";
import { createLockMetrics, type KindMetrics } from "./metrics.ts";
import { releaseScript } from "./scripts.ts";
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
import { FairWaiting } from "./waiting.ts";
import { Attempts } from "./attempts.ts";
import { StrictReplication } from "./replication.ts";
import type { Waiter } from "./waiter.ts";
import { withLock } from "./with-lock.ts";

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
  readonly #waiting: FairWaiting;
  readonly #attempts: Attempts;
  readonly #replication: StrictReplication | undefined;
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
    this.#waiting = new FairWaiting({
      queues: this.#queues,
      backoff: this.#config.backoff,
      attempt: (request, waiter, deadline) => this.#attempts.run(request, waiter, deadline),
      handedLease: (request, waiter) => this.#handedLease(request, waiter),
      discard: (lease) => this.#discard(lease),
      giveBack: (keys, token, leaveLine, retentionMs) =>
        this.#giveBack(keys, token, leaveLine, retentionMs),
    });
    const replication = this.#config.replication;
    this.#replication =
      replication &&
      new StrictReplication(replication, this.#runner, this.#redis, this.#config.commandTimeoutMs);
    this.#attempts = new Attempts({
      runner: this.#runner,
      managerId: this.#id,
      replication: this.#replication,
      newLease: (request, token, fence, startedAt, ttlMs) =>
        this.#newLease(request, token, fence, startedAt, ttlMs),
      giveBack: (keys, token, leaveLine, retentionMs) =>
        this.#giveBack(keys, token, leaveLine, retentionMs),
    });
    this.#host = leaseHost({
      runner: this.#runner,
      inbox: this.#inbox,
      fenceRetentionOf: (kind) => this.#requests.fenceRetentionOf(kind),
      leases: this.#leases,
      timers: this.#timers,
      checkTtl: (ttlMs) => checkTtl(ttlMs, this.#config.ttlBounds),
      safetyMarginMs: this.#config.safetyMarginMs,
      logger: this.#logger,
    });
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
      // FairWaiting.joinsLineAtOnce).
      const deadline = started + request.waitMs;
      const joinAtOnce = this.#waiting.joinsLineAtOnce(request);
      let lease = joinAtOnce ? undefined : (await this.#attempts.run(request)).lease;
      if (!lease && (joinAtOnce || performance.now() < deadline)) {
        this.#throwIfClosed(request.kind); // closed while the try was on its way
        lease = await this.#waiting.wait(request, deadline);
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

  /** The lease a release handed to `waiter` (its lock already set to the waiter's token). */
  async #handedLease(request: LockRequest, waiter: Waiter): Promise<LockLease> {
    const { fence, ttlMs, serverMs } = waiter.handover!;
    const startedAt = waiter.handoverStartedAt(serverMs);
    const lease = this.#newLease(request, waiter.token, fence, startedAt, ttlMs);
    await this.#replication?.confirmHandover(lease);
    return lease;
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
    retentionMs = this.#config.fenceRetentionMs,
  ): void {
    const args = [token, this.#inbox, retentionMs];
    if (leaveLine) args.push(this.#id);
    releaseScript
      .run(this.#redis, [keys.lock, keys.fence, keys.queue, keys.tickets], args)
      .catch(() => {});
  }

  /** A lease nobody was given: stop tracking it and give its lock back (owner-checked, so harmless if gone). */
  #discard(lease: LockLease): void {
    this.#leases.delete(lease.token);
    this.#giveBack(lease.keys, lease.token, false, this.#requests.fenceRetentionOf(lease.kind));
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
}
