// createLockManager: the one entry point. Acquire is one script round trip; a caller that finds
// the lock taken waits, by the fair-waiting layer when it is plugged in, otherwise by retrying
// after a randomised backoff until its wait runs out (never a hot loop). The manager is also the
// host its leases, withLock and its layers call back into.
import { LockLease } from "./lease.ts";
import { checkOptions, keysOf, kindOf, newToken, requestOf, type Config } from "./requests.ts";
import { extendScript, releaseScript, runCommand, tryScript, type LuaScript } from "./scripts.ts";
import { LockUnavailableError, type LayerHost, type LockManager } from "./types.ts";
import type * as T from "./types.ts";
import { withLock } from "./with-lock.ts";

type Timer = ReturnType<typeof setTimeout>;
const silent: T.LockLogger = { debug() {}, info() {}, warn() {}, error() {} };
const HOOKS = ["acquired", "waited", "held", "renewed", "leaseLost", "releaseNotOwner", "command"];
const noMetrics = Object.fromEntries(
  [...HOOKS, "breakerOpen", "degraded"].map((hook) => [hook, () => {}]),
) as unknown as T.KindMetrics;

/** Decorrelated jitter: each delay random between the base and 3x the previous one, capped. */
export class Backoff {
  #previous: number;
  constructor(private readonly options: { baseMs: number; maxMs: number }) {
    this.#previous = options.baseMs;
  }
  next(): number {
    const { baseMs, maxMs } = this.options;
    const next = baseMs + Math.random() * (this.#previous * 3 - baseMs);
    return (this.#previous = Math.min(maxMs, next));
  }
}

/**
 * @example
 * const locks = createLockManager({ redis, namespace: "prod:shopbot", hashKey, kinds,
 *   layers: { waiting: fairWaiting(), breaker: circuitBreaker(), metrics: lockMetrics(registry) } });
 */
export function createLockManager(options: T.LockManagerOptions): LockManager {
  return new RedisLockManager(options);
}

export class RedisLockManager implements LockManager, LayerHost {
  readonly config: Config;
  readonly redis: T.LockRedisClient;
  readonly logger: T.LockLogger;
  readonly #metrics = new Map<string, T.KindMetrics>();
  readonly #timers = new Set<Timer>();
  readonly #leases = new Map<string, LockLease>();
  readonly #sleepers = new Set<(reason: unknown) => void>();
  readonly #breaker: T.BreakerLayer | undefined;
  readonly #replication: T.ReplicationLayer | undefined;
  readonly #waiting: T.WaitingLayer | undefined;
  #inFlight = 0;
  #closed = false;

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
      this.#throwIfClosed(request.kind);
      request.signal?.throwIfAborted();
      const deadline = started + request.waitMs;
      let lease: T.Lease | undefined = this.#taken(await this.#try(request), request);
      if (!lease && performance.now() < deadline) {
        this.#throwIfClosed(request.kind);
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

  withLock<R>(
    resource: T.LockResource,
    fn: (ctx: T.LockContext) => Promise<R>,
    options: T.WithLockOptions = {},
  ): Promise<T.LockOutcome<R>> {
    return withLock(this, resource, fn, options);
  }

  keyFor(resource: T.LockResource): string {
    return keysOf(this.config, resource).lock;
  }

  policyFor(kind: string): T.OutagePolicy {
    return kindOf(this.config, kind).outage;
  }

  stats(): T.LockStats {
    return {
      waiters: this.#waiting?.waiters ?? this.#sleepers.size,
      subscriptions: this.#waiting?.subscriptions ?? 0,
      timers: this.#timers.size,
      leases: this.#leases.size,
      commandsInFlight: this.#inFlight,
      breaker: this.#breaker?.state ?? "closed",
    };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.redis.off("close", this.#onConnectionLost);
    const reason = new LockUnavailableError("the lock manager was closed", { reason: "closed" });
    this.#waiting?.close(reason);
    for (const wake of [...this.#sleepers]) wake(reason);
  }

  #throwIfClosed(kind: string): void {
    if (this.#closed)
      throw new LockUnavailableError("the lock manager was closed", { reason: "closed", kind });
  }

  /** One try: the lease if the lock was free. A try that timed out may still run: give it back. */
  async #try(request: T.LockRequest): Promise<LockLease | undefined> {
    const { keys, kind, ttlMs, fenceRetentionMs } = request;
    const token = newToken();
    const sentAt = Date.now();
    const args = [keys.lock, keys.fence, token, ttlMs, fenceRetentionMs];
    const reply = (await this.#script("acquire", kind, tryScript, args).catch((error) => {
      if (error instanceof LockUnavailableError && error.reason === "timeout")
        this.#giveBack(keys, token, fenceRetentionMs);
      throw error;
    })) as [number, number];
    return reply[0] === 1 ? this.lease(request, token, reply[1], sentAt, false) : undefined;
  }

  /** Without the fair-waiting layer: try again after a randomised backoff until the deadline. */
  async #retry(request: T.LockRequest, deadline: number): Promise<LockLease | undefined> {
    const backoff = new Backoff(this.config.backoff);
    for (let left = deadline - performance.now(); left > 0; left = deadline - performance.now()) {
      await this.#sleep(Math.min(backoff.next(), left), request.signal);
      const lease = this.#taken(await this.#try(request), request);
      if (lease) return lease;
    }
    return undefined;
  }

  /** A lease won by a try is given back when the caller gave up while the try was on its way. */
  #taken(lease: LockLease | undefined, request: T.LockRequest): LockLease | undefined {
    if (!lease || (!request.signal?.aborted && !this.#closed)) return lease;
    this.discard(lease);
    this.#throwIfClosed(request.kind);
    throw request.signal!.reason;
  }

  /** Sleeps `ms` on a counted timer; the signal or close() end it at once. */
  #sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      const end = (error?: unknown) => {
        this.clearTimer(timer);
        this.#sleepers.delete(end);
        signal?.removeEventListener("abort", onAbort);
        if (error === undefined) resolve();
        else reject(error);
      };
      const onAbort = () => end(signal!.reason);
      const timer = this.setTimer(() => end(), ms);
      this.#sleepers.add(end);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  // ------------------------------------------------ the host of leases, withLock and layers

  metrics(kind: string): T.KindMetrics {
    return this.#metrics.get(kind) ?? noMetrics;
  }

  async lease(request: T.LockRequest, token: string, fence: number, at: number, handed: boolean) {
    const lease = new LockLease(request, token, fence, at, this);
    this.#leases.set(token, lease);
    await this.#replication?.confirm(lease, handed);
    return lease;
  }

  holds(token: string): boolean {
    return this.#leases.has(token);
  }

  forget(lease: LockLease): void {
    this.#leases.delete(lease.token);
  }

  discard(lease: T.Lease): void {
    (lease as LockLease).forget();
    this.#giveBack(lease.keys, lease.token, (lease as LockLease).request.fenceRetentionMs);
  }

  extend(lease: LockLease, ttlMs: number): Promise<unknown> {
    return this.#script("extend", lease.kind, extendScript, [lease.key, lease.token, ttlMs]);
  }

  release({ keys, token, kind, request }: LockLease): Promise<unknown> {
    const retention = request.fenceRetentionMs;
    if (this.#waiting)
      return this.run("release", kind, () => this.#waiting!.release(keys.lock, token, retention));
    return this.#script("release", kind, releaseScript, [keys.lock, token]);
  }

  warn({ kind, fence, keys, request }: LockLease, fields: object, message: string): void {
    const line = { kind, id: keys.maskedId, fence, requestId: request.requestId, ...fields };
    this.logger.warn(line, message);
  }

  run<R>(command: T.LockCommand, kind: string, send: () => Promise<R>, timeoutMs?: number) {
    if (this.#breaker && !this.#breaker.allow())
      return Promise.reject(
        new LockUnavailableError("Redis circuit breaker is open", { reason: "breaker-open", kind }),
      );
    const started = performance.now();
    this.#inFlight += 1;
    return runCommand(command, kind, send, timeoutMs ?? this.config.commandTimeoutMs).then(
      (value) => this.#ran(command, kind, started, undefined, value),
      (error: unknown) => this.#ran(command, kind, started, error, undefined as R),
    );
  }

  setTimer(fn: () => void, ms: number): Timer {
    const handle = setTimeout(() => this.#timers.delete(handle) && fn(), Math.max(0, ms)).unref();
    this.#timers.add(handle);
    return handle;
  }

  clearTimer(handle: Timer | undefined): void {
    clearTimeout(handle);
    if (handle) this.#timers.delete(handle);
  }

  #ran<R>(command: T.LockCommand, kind: string, started: number, error: unknown, value: R): R {
    this.#inFlight -= 1;
    this.metrics(kind).command(command, (performance.now() - started) / 1000);
    const unavailable = error instanceof LockUnavailableError;
    if (unavailable) this.#breaker?.failure();
    else this.#breaker?.success(); // an answer, even an error reply: Redis is reachable
    if (error !== undefined) throw error;
    return value;
  }

  #script(command: T.LockCommand, kind: string, script: LuaScript, args: (string | number)[]) {
    return this.run(command, kind, () => script.send(this.redis, args));
  }

  /** Owner-checked release of a lock nobody here will use; best effort (else its TTL ends it). */
  #giveBack(keys: T.LockKeys, token: string, retentionMs: number): void {
    const sent = this.#waiting
      ? this.#waiting.release(keys.lock, token, retentionMs)
      : releaseScript.send(this.redis, [keys.lock, token]);
    sent.catch(() => {});
  }

  /** The connection dropped: no lease can be renewed or trusted any more. */
  readonly #onConnectionLost = () => {
    for (const lease of [...this.#leases.values()]) lease.lose("connection-lost");
  };
}
