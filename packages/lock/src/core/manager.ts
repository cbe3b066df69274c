// createLockManager: the one entry point. Acquire is one script round trip; a caller that finds
// the lock taken waits, by the fair-waiting layer when it is plugged in, otherwise by retrying
// after a randomised backoff until its wait runs out (never a hot loop). The manager is also the
// host its leases, withLock and its layers call back into.
import { setTimeout as sleep } from "node:timers/promises";
import { LockLease } from "./lease.ts";
import { checkOptions, keysOf, kindOf, newToken, requestOf, type LockRequest } from "./requests.ts";
import { extendScript, releaseScript, runCommand, tryScript, type LuaScript } from "./scripts.ts";
import { LockUnavailableError, type LockManager } from "./types.ts";
import type * as T from "./types.ts";
import { withLock } from "./with-lock.ts";

type Timer = ReturnType<typeof setTimeout>;
const silent: T.LockLogger = { debug() {}, info() {}, warn() {}, error() {} };
const HOOKS = ["acquired", "waited", "held", "renewed", "leaseLost", "releaseNotOwner", "command"];
const noMetrics = Object.fromEntries(
  [...HOOKS, "breakerOpen", "degraded"].map((hook) => [hook, () => {}]),
) as unknown as T.KindMetrics;

/** Decorrelated jitter: each delay random between the base and 3x the previous one, capped. */
export function backoff({ baseMs, maxMs }: { baseMs: number; maxMs: number }): () => number {
  let previous = baseMs;
  return () => (previous = Math.min(maxMs, baseMs + Math.random() * (previous * 3 - baseMs)));
}

/**
 * @example
 * const locks = createLockManager({ redis, namespace: "prod:shopbot", hashKey, kinds,
 *   layers: { waiting: fairWaiting(), breaker: circuitBreaker(), metrics: lockMetrics(registry) } });
 */
export function createLockManager(options: T.LockManagerOptions): LockManager {
  return new RedisLockManager(options);
}

export class RedisLockManager implements LockManager {
  readonly config: ReturnType<typeof checkOptions>;
  readonly redis: T.LockRedisClient;
  readonly logger: T.LockLogger;
  readonly #metrics = new Map<string, T.KindMetrics>();
  readonly #timers = new Set<Timer>();
  readonly #leases = new Map<string, LockLease>();
  readonly #closing = new AbortController();
  readonly #breaker: T.BreakerLayer | undefined;
  readonly #replication: T.ReplicationLayer | undefined;
  readonly #waiting: T.WaitingLayer | undefined;
  #sleeping = 0;
  #inFlight = 0;

  constructor(options: T.LockManagerOptions) {
    this.config = checkOptions(options);
    this.redis = options.redis;
    this.logger = options.logger ?? silent;
    const { waiting, replication, breaker, metrics } = options.layers ?? {};
    const perKind = metrics?.(this);
    for (const kind of this.config.kinds.keys())
      this.#metrics.set(kind, perKind?.forKind(kind) ?? noMetrics);
    this.#breaker = breaker?.(this);
    this.#replication = replication?.(this);
    this.#waiting = waiting?.(this);
    this.redis.on("close", this.#onConnectionLost);
  }

  async acquire(resource: T.LockResource, options: T.AcquireOptions = {}) {
    const metrics = this.metrics(resource?.kind);
    const request = requestOf(this.config, resource, options, metrics);
    const started = performance.now();
    try {
      this.#closing.signal.throwIfAborted();
      request.signal?.throwIfAborted();
      const deadline = started + request.waitMs;
      let lease: T.Lease | undefined = this.#taken(await this.#try(request), request);
      if (!lease && performance.now() < deadline) {
        this.#closing.signal.throwIfAborted();
        lease = this.#waiting
          ? await this.#waiting.wait(request, deadline)
          : await this.#retry(request, deadline);
      }
      const waited = performance.now() - started;
      metrics.acquired(lease ? "acquired" : "busy");
      metrics.waited(waited / 1000);
      if (lease) return { ok: true as const, lease };
      const waitedMs = Math.round(waited);
      return { ok: false as const, reason: "busy" as const, key: request.keys.lock, waitedMs };
    } catch (error) {
      metrics.acquired(request.signal?.aborted ? "aborted" : "unavailable");
      throw error;
    }
  }

  readonly withLock: LockManager["withLock"] = (resource, fn, options = {}) =>
    withLock(this, resource, fn, options);

  readonly keyFor = (resource: T.LockResource) => keysOf(this.config, resource).lock;
  readonly policyFor = (kind: string) => kindOf(this.config, kind).outage;

  stats(): T.LockStats {
    return {
      waiters: this.#waiting?.waiters ?? this.#sleeping,
      subscriptions: this.#waiting?.subscriptions ?? 0,
      timers: this.#timers.size,
      leases: this.#leases.size,
      commandsInFlight: this.#inFlight,
      breaker: this.#breaker?.state ?? "closed",
    };
  }

  async close(): Promise<void> {
    if (this.#closing.signal.aborted) return;
    this.redis.off("close", this.#onConnectionLost);
    const reason = new LockUnavailableError("the lock manager was closed", "closed");
    this.#closing.abort(reason);
    this.#waiting?.close(reason);
  }

  /** One try: the lease if the lock was free. A try that timed out may still run: give it back. */
  async #try(request: LockRequest): Promise<LockLease | undefined> {
    const { keys, kind, ttlMs, fenceRetentionMs } = request;
    const token = newToken();
    const sentAt = Date.now();
    const args = [keys.lock, keys.fence, token, ttlMs, fenceRetentionMs];
    const reply = (await this.#script("acquire", kind, tryScript, args).catch((error) => {
      if (error instanceof LockUnavailableError && error.reason === "timeout")
        this.#giveBack(keys.lock, token, fenceRetentionMs);
      throw error;
    })) as [number, number];
    return reply[0] === 1 ? this.lease(request, token, reply[1], sentAt, false) : undefined;
  }

  /** Without the fair-waiting layer: try again after a randomised backoff until the deadline. */
  async #retry(request: LockRequest, deadline: number): Promise<LockLease | undefined> {
    const next = backoff(this.config.backoff);
    const signals = [this.#closing.signal, ...(request.signal ? [request.signal] : [])];
    const signal = AbortSignal.any(signals);
    for (let left = deadline - performance.now(); left > 0; left = deadline - performance.now()) {
      this.#sleeping += 1;
      await sleep(Math.min(next(), left), undefined, { signal, ref: false })
        .catch(() => signal.throwIfAborted())
        .finally(() => (this.#sleeping -= 1));
      const lease = this.#taken(await this.#try(request), request);
      if (lease) return lease;
    }
    return undefined;
  }

  /** A lease won by a try is given back when the caller gave up while the try was on its way. */
  #taken(lease: LockLease | undefined, request: LockRequest): LockLease | undefined {
    if (!lease || (!request.signal?.aborted && !this.#closing.signal.aborted)) return lease;
    this.discard(lease);
    this.#closing.signal.throwIfAborted();
    throw request.signal!.reason;
  }

  // ------------------------------------------------ the host of leases, withLock and layers

  metrics(kind: string): T.KindMetrics {
    return this.#metrics.get(kind) ?? noMetrics;
  }

  /** A lease for a lock Redis set to `token` (replicated first when that layer is on). */
  async lease(request: LockRequest, token: string, fence: number, at: number, handed: boolean) {
    const lease = new LockLease(request, token, fence, at, this);
    this.#leases.set(token, lease);
    await this.#replication?.confirm(lease, handed);
    return lease;
  }

  /** Whether a lease of this manager holds `token`. */
  holds(token: string): boolean {
    return this.#leases.has(token);
  }

  forget(lease: LockLease): void {
    this.#leases.delete(lease.token);
  }

  /** Stops tracking a lease nobody will use and gives its lock back. */
  discard(lease: T.Lease): void {
    const { request } = lease as LockLease;
    (lease as LockLease).forget();
    this.#giveBack(lease.key, lease.token, request.fenceRetentionMs);
  }

  extend(lease: LockLease, ttlMs: number): Promise<unknown> {
    return this.#script("extend", lease.kind, extendScript, [lease.key, lease.token, ttlMs]);
  }

  release({ key, token, kind, request }: LockLease): Promise<unknown> {
    const retention = request.fenceRetentionMs;
    if (this.#waiting)
      return this.run("release", kind, () => this.#waiting!.release(key, token, retention));
    return this.#script("release", kind, releaseScript, [key, token]);
  }

  warn({ kind, fence, request }: LockLease, fields: object, message: string): void {
    const { keys, requestId } = request;
    this.logger.warn({ kind, id: keys.maskedId, fence, requestId, ...fields }, message);
  }

  /** One command under the command timeout, the breaker and the latency metric. */
  async run<R>(command: T.LockCommand, kind: string, send: () => Promise<R>, timeoutMs?: number) {
    if (this.#breaker && !this.#breaker.allow())
      throw new LockUnavailableError("Redis circuit breaker is open", "breaker-open", kind);
    const started = performance.now();
    this.#inFlight += 1;
    try {
      const value = await runCommand(
        command,
        kind,
        send,
        timeoutMs ?? this.config.commandTimeoutMs,
      );
      this.#breaker?.success();
      return value;
    } catch (error) {
      // An error reply is an answer too: only an unreachable Redis counts against it.
      if (error instanceof LockUnavailableError) this.#breaker?.failure();
      else this.#breaker?.success();
      throw error;
    } finally {
      this.#inFlight -= 1;
      this.metrics(kind).command(command, (performance.now() - started) / 1000);
    }
  }

  /** A timer counted in stats() and unref'd. */
  setTimer(fn: () => void, ms: number): Timer {
    const handle = setTimeout(() => this.#timers.delete(handle) && fn(), Math.max(0, ms)).unref();
    this.#timers.add(handle);
    return handle;
  }

  clearTimer(handle: Timer | undefined): void {
    clearTimeout(handle);
    if (handle) this.#timers.delete(handle);
  }

  #script(command: T.LockCommand, kind: string, script: LuaScript, args: (string | number)[]) {
    return this.run(command, kind, () => script.send(this.redis, args));
  }

  /** Owner-checked release of a lock nobody here will use; best effort (else its TTL ends it). */
  #giveBack(lock: string, token: string, retentionMs: number): void {
    const sent = this.#waiting
      ? this.#waiting.release(lock, token, retentionMs)
      : releaseScript.send(this.redis, [lock, token]);
    sent.catch(() => {});
  }

  /** The connection dropped: no lease can be renewed or trusted any more. */
  readonly #onConnectionLost = () => {
    for (const lease of [...this.#leases.values()]) lease.lose("connection-lost");
  };
}
