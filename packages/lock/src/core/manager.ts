// createLockManager: the one entry point. Acquire is one script round trip; a taken lock is waited
// for by the fair-waiting layer, or by randomised backoff (never a hot loop) until the wait ends.
import { setTimeout as sleep } from "node:timers/promises";
import { LockLease } from "./lease.ts";
import { checkOptions, keysOf, marginFor, newToken, requestOf } from "./requests.ts";
import type { LockRequest } from "./requests.ts";
import { extendScript, mayHaveRun, releaseScript, runCommand, tryScript } from "./scripts.ts";
import { LockUnavailableError } from "./types.ts";
import type * as T from "./types.ts";

const silent: T.LockLogger = { debug() {}, info() {}, warn() {}, error() {} };
const noop = () => {};
const noMetrics = new Proxy({}, { get: () => noop }) as T.KindMetrics; // every hook: one no-op

/** Decorrelated jitter: each delay random between the base and 3x the previous one, capped. */
export function backoff({ baseMs, maxMs } = { baseMs: 20, maxMs: 500 }): () => number {
  let previous = baseMs;
  return () => (previous = Math.min(maxMs, baseMs + Math.random() * (previous * 3 - baseMs)));
}

/** A lock manager on `redis`; the package README shows one with every layer.
 * @example createLockManager({ redis, namespace: "prod:shop", hashKey, kinds: { order: { ttlMs: 5000, waitMs: 2000 } } }) */
export function createLockManager(options: T.LockManagerOptions): LockManager {
  return new RedisLockManager(options);
}

/** What callers use; the rest of the manager is for its leases and layers. */
export type LockManager = Pick<
  RedisLockManager,
  "acquire" | "withLock" | "keyFor" | "close" | "stats"
>;

export class RedisLockManager {
  readonly config: ReturnType<typeof checkOptions>;
  readonly redis: T.LockRedisClient;
  readonly logger: T.LockLogger;
  /** Monotonic milliseconds: every deadline (leases, waits, the breaker) is on it, never on the
   * wall clock, which NTP or an operator may step. */
  readonly clock: () => number;
  readonly layers: {
    breaker?: T.BreakerLayer;
    replication?: T.ReplicationLayer;
    waiting?: T.WaitingLayer;
    outage?: T.OutageLayer;
  };
  readonly #metrics = new Map<string, T.KindMetrics>();
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #leases = new Map<string, LockLease>();
  readonly #closing = new AbortController();
  #sleeping = 0;
  #inFlight = 0;

  constructor(options: T.LockManagerOptions) {
    this.config = checkOptions(options);
    this.redis = options.redis;
    this.logger = options.logger ?? silent;
    this.clock = options.clock ?? (() => performance.now());
    const { metrics, breaker, replication, waiting, outage } = options.layers ?? {};
    const perKind = metrics?.(this);
    for (const kind of this.config.kinds.keys())
      this.#metrics.set(kind, perKind?.forKind(kind) ?? noMetrics);
    this.layers = {
      breaker: breaker?.(this),
      replication: replication?.(this),
      waiting: waiting?.(this),
      outage: outage?.(this),
    };
    this.redis.on("close", this.#onConnectionLost);
  }

  /** Takes the lock, waiting up to `waitMs`: a lease to release, or `{ ok: false }` when busy.
   * @example const r = await locks.acquire({ kind: "order", id: 42 }); if (r.ok) await r.lease.release(); */
  async acquire(resource: T.LockResource, options: T.AcquireOptions = {}) {
    const request = requestOf(this.config, resource, options, this.metrics(resource?.kind));
    const { metrics } = request;
    const started = this.clock();
    try {
      this.#closing.signal.throwIfAborted();
      request.signal?.throwIfAborted();
      const deadline = started + request.waitMs;
      let lease: T.Lease | undefined = this.#taken(await this.#try(request), request);
      if (!lease && this.clock() < deadline) {
        this.#closing.signal.throwIfAborted();
        const { waiting } = this.layers;
        lease = await (waiting ? waiting.wait(request, deadline) : this.#retry(request, deadline));
      }
      const waited = this.clock() - started;
      metrics.acquired(lease ? "acquired" : "busy", waited / 1000);
      if (lease) return { ok: true as const, lease };
      const waitedMs = Math.round(waited);
      return { ok: false as const, reason: "busy" as const, key: request.keys.lock, waitedMs };
    } catch (error) {
      metrics.acquired(request.signal?.aborted ? "aborted" : "unavailable");
      throw error;
    }
  }

  /** Acquires, renews by watchdog while `fn` runs, releases in `finally`. While Redis is down it
   * throws LockUnavailableError, unless the outage layer applies the kind's policy.
   * @example await locks.withLock({ kind: "order", id: 42 }, async ({ signal }) => ship(42, signal)) */
  async withLock<R>(
    resource: T.LockResource,
    fn: (ctx: T.LockContext) => Promise<R>,
    options: T.WithLockOptions = {},
  ): Promise<T.LockOutcome<R>> {
    if (typeof fn !== "function") throw new TypeError("withLock needs a function to run under it");
    let lease: LockLease;
    try {
      const result = await this.acquire(resource, options);
      if (!result.ok) return { status: "busy" };
      lease = result.lease as LockLease;
    } catch (error) {
      // Closing is no outage: fail rather than run lockless while another instance may hold it.
      const { outage } = this.layers;
      if (!outage || !(error instanceof LockUnavailableError) || error.reason === "closed")
        throw error;
      const signal = options.signal ?? new AbortController().signal;
      return outage(resource.kind, error, () => fn({ lease: null, signal }), options.requestId);
    }

    const stopWatchdog = lease.keepAlive(options.signal);
    try {
      const value = await fn({ lease, signal: lease.signal });
      return { status: "ok", value, fence: lease.fence, degraded: false, lost: lease.lost };
    } finally {
      stopWatchdog();
      await lease.release().catch((error: Error) => {
        this.giveBack(lease.request, lease.token);
        this.warn(lease, { err: error.message }, "lock release failed; retried until its TTL");
      });
    }
  }

  keyFor(resource: T.LockResource): string {
    return keysOf(this.config, resource).lock;
  }

  /** What it holds now (timers: of waits and leases, not of commands): nothing left behind. */
  stats(): T.LockStats {
    const { waiting, breaker } = this.layers;
    return {
      waiters: waiting?.waiters ?? this.#sleeping,
      subscriptions: waiting?.subscriptions ?? 0,
      timers: this.#timers.size,
      leases: this.#leases.size,
      commandsInFlight: this.#inFlight,
      breaker: breaker?.state ?? "closed",
    };
  }

  /** Ends every wait; leases stay with their holders. */
  async close(): Promise<void> {
    if (this.#closing.signal.aborted) return;
    if (this.#leases.size === 0) this.redis.off("close", this.#onConnectionLost);
    const reason = new LockUnavailableError("the lock manager was closed", "closed");
    this.#closing.abort(reason);
    this.layers.waiting?.close(reason);
    this.layers.replication?.close?.();
  }

  /** One try: the lease if the lock was free. A try whose reply never came may have run: give
   * it back by its token (a retry the client sends after a reconnect finds the lock its own). */
  async #try(request: LockRequest): Promise<LockLease | undefined> {
    const { keys, kind, ttlMs, fenceRetentionMs: retention } = request;
    const token = newToken();
    const sentAt = this.clock();
    const send = () =>
      tryScript.run(this.redis, [keys.lock, keys.fence], [token, ttlMs, retention]);
    const reply = await this.run("acquire", kind, send).catch((error) => {
      if (mayHaveRun(error)) this.giveBack(request, token);
      throw error;
    });
    const [took, fence] = reply as [number, number];
    return took === 1 ? this.lease(request, token, fence, sentAt, false) : undefined;
  }

  /** Without the fair-waiting layer: try again after a randomised backoff until the deadline.
   * One listener per source, removed at the end (Node 20's AbortSignal.any leaks an entry per
   * call on a long-lived source, such as the manager's closing signal). */
  async #retry(request: LockRequest, deadline: number): Promise<LockLease | undefined> {
    const next = backoff();
    const sources = [this.#closing.signal, ...(request.signal ? [request.signal] : [])];
    const either = new AbortController();
    const { signal } = either;
    const stop = () => either.abort(sources.find((s) => s.aborted)?.reason);
    for (const source of sources) source.addEventListener("abort", stop, { once: true });
    try {
      for (let left = deadline - this.clock(); left > 0; left = deadline - this.clock()) {
        this.#sleeping += 1;
        await sleep(Math.min(next(), left), undefined, { signal, ref: false })
          .catch(() => signal.throwIfAborted())
          .finally(() => (this.#sleeping -= 1));
        const lease = this.#taken(await this.#try(request), request);
        if (lease) return lease;
      }
      return undefined;
    } finally {
      for (const source of sources) source.removeEventListener("abort", stop);
    }
  }

  /** A lease won by a try is given back when the caller gave up while the try was on its way. */
  #taken(lease: LockLease | undefined, request: LockRequest): LockLease | undefined {
    if (!lease || (!request.signal?.aborted && !this.#closing.signal.aborted)) return lease;
    lease.forget();
    this.#release(lease.key, lease.token, request.fenceRetentionMs).catch(() => {});
    this.#closing.signal.throwIfAborted();
    throw request.signal!.reason;
  }

  // ------------------------------------------------ the host of leases, withLock and layers

  metrics(kind: string): T.KindMetrics {
    return this.#metrics.get(kind) ?? noMetrics;
  }

  /** A lease for a lock Redis set to `token` (replicated first when that layer is on). One that
   * would be lost already (the reply came too late) is given back, never handed out. */
  async lease(request: LockRequest, token: string, fence: number, at: number, handed: boolean) {
    if (this.clock() >= at + request.ttlMs - marginFor(request.ttlMs)) {
      this.#release(request.keys.lock, token, request.fenceRetentionMs).catch(() => {});
      const text = "Redis answered the acquire too late to use the lock";
      throw new LockUnavailableError(text, "timeout", request.kind);
    }
    const lease = new LockLease(request, token, fence, at, this);
    this.#leases.set(token, lease);
    await this.layers.replication?.confirm(lease, handed);
    return lease;
  }

  /** Whether a lease of this manager holds `token`. */
  holds(token: string): boolean {
    return this.#leases.has(token);
  }

  forget(lease: LockLease): void {
    this.#leases.delete(lease.token);
    // Closed: leases still held are marked lost on a disconnect until the last one ends.
    if (this.#closing.signal.aborted && this.#leases.size === 0)
      this.redis.off("close", this.#onConnectionLost);
  }

  /** Gives back a lock by its token when the outcome of the command that took it is unknown (its
   * reply was lost, or a release failed): sent at once, and again while Redis cannot be reached,
   * until the TTL has ended the lock anyway. */
  giveBack(request: LockRequest, token: string): void {
    const until = this.clock() + request.ttlMs;
    const attempt = () => {
      this.#release(request.keys.lock, token, request.fenceRetentionMs).catch(() => {
        const left = until - this.clock();
        if (left > 0) this.setTimer(attempt, Math.min(left, 25 + Math.random() * 75));
      });
    };
    attempt();
  }

  extend({ key, token, kind, request }: LockLease, ttlMs: number, counter = false) {
    const { keys, fenceRetentionMs: retention } = request;
    const lockKeys = counter ? [key, keys.fence] : [key];
    const send = () => extendScript.run(this.redis, lockKeys, [token, ttlMs, retention]);
    return this.run("extend", kind, send);
  }

  release({ key, token, kind, request }: LockLease): Promise<unknown> {
    return this.run("release", kind, () => this.#release(key, token, request.fenceRetentionMs));
  }

  warn({ kind, fence, request }: LockLease, fields: object, message: string): void {
    const { keys, requestId } = request;
    this.logger.warn({ kind, id: keys.maskedId, fence, requestId, ...fields }, message);
  }

  /** One command under the command timeout, the breaker and the latency metric. The breaker
   * never blocks a release or a renewal: Redis may still take them (OOM refuses only new keys). */
  async run<R>(command: T.LockCommand, kind: string, send: () => Promise<R>, timeoutMs?: number) {
    const { breaker } = this.layers;
    const gated = command === "acquire" || command === "wait";
    if (breaker && gated && !breaker.allow())
      throw new LockUnavailableError("Redis circuit breaker is open", "breaker-open", kind);
    const ms = timeoutMs ?? this.config.commandTimeoutMs;
    const started = this.clock();
    this.#inFlight += 1;
    try {
      const value = await runCommand(command, kind, send, ms);
      breaker?.answered(true);
      return value;
    } catch (error) {
      const down = error instanceof LockUnavailableError && error.reason !== "oom";
      breaker?.answered(!down); // an error reply, OOM too, is an answer
      throw error;
    } finally {
      this.#inFlight -= 1;
      this.metrics(kind).command(command, (this.clock() - started) / 1000);
    }
  }

  /** A timer counted in stats() and unref'd. */
  setTimer(fn: () => void, ms: number): NodeJS.Timeout {
    const handle = setTimeout(() => this.#timers.delete(handle) && fn(), Math.max(0, ms)).unref();
    this.#timers.add(handle);
    return handle;
  }

  clearTimer(handle: NodeJS.Timeout | undefined): void {
    clearTimeout(handle);
    if (handle) this.#timers.delete(handle);
  }

  /** The owner-checked release: the fair-waiting layer's, which hands the lock on, or the core's. */
  #release(lock: string, token: string, retentionMs: number): Promise<unknown> {
    const { waiting } = this.layers;
    if (waiting) return waiting.release(lock, token, retentionMs);
    return releaseScript.run(this.redis, [lock], [token]);
  }

  /** The connection dropped: no lease can be renewed or trusted any more. */
  readonly #onConnectionLost = () => {
    for (const lease of [...this.#leases.values()]) lease.lose("connection-lost");
  };
}
