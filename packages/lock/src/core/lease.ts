// A held lock: pass its `fence` with the writes it guards, and stop when its `signal` aborts (lost,
// a renewal failed, the connection dropped, or about to expire unrenewed). `held` and the signal
// compare the clock with that moment whenever read: after a stall, I/O runs before timers. Every
// moment is on the manager's monotonic clock, anchored to when the acquire was sent.
import { LeaseLostError } from "./types.ts";
import type { RedisLockManager } from "./manager.ts";
import { int, marginFor, TTL_MS, type LockRequest } from "./requests.ts";
import type * as T from "./types.ts";

/** What a holder sees of its lease; its `fence` goes with each write it guards.
 * @example await db.query("UPDATE orders SET fence = $1 WHERE id = 42 AND fence < $1", [lease.fence]) */
export type Lease = Omit<LockLease, "request" | "lose" | "keepAlive" | "forget">;

const nativeGetter = (name: string) =>
  Object.getOwnPropertyDescriptor(AbortSignal.prototype, name)!.get!;
const [aborted, reason] = [nativeGetter("aborted"), nativeGetter("reason")];

export class LockLease {
  readonly key: string; // {namespace:lock:kind:id}: a Cluster hash tag shared with its fence
  readonly kind: string;
  readonly ttlMs: number;
  #expires = 0; // on the host's monotonic clock, as every moment below
  #state: "held" | "released" | "lost" = "held";
  readonly #controller = new AbortController(); // Node.js makes its signal on first read
  #signal: AbortSignal | undefined;
  #deadline = 0; // abortsAt
  #givenUp = false; // the caller gave up: renewals stopped, the expiry is no loss
  readonly #sentAt: number;
  #counterAt: number; // when the fence counter's retention last started (about)
  #guard: NodeJS.Timeout | undefined;
  #releasing: Promise<"released" | "not-owner"> | undefined;
  #lost: T.LeaseLossReason | null = null;
  #recorded = false; // the hold time went to the metrics (at the first release)
  #expiryReason: T.LeaseLossReason = "expired";

  constructor(
    readonly request: LockRequest,
    readonly token: string,
    readonly fence: number, // grows per key across holders and failovers (server clock floor)
    sentAt: number, // when the acquire was sent (host clock): the lease began no later
    private readonly host: RedisLockManager,
  ) {
    ({ kind: this.kind, ttlMs: this.ttlMs } = request);
    this.key = request.keys.lock;
    this.#sentAt = this.#counterAt = sentAt;
    this.#expireAt(sentAt + this.ttlMs);
  }

  /** Aborts at a loss or at `abortsAt`; `aborted`, `reason`, `throwIfAborted()` check the clock. */
  get signal(): AbortSignal {
    return (this.#signal ??= this.#checkedSignal());
  }

  /** When the acquire was sent, as a Date.now() time (converted when read). */
  get acquiredAt(): number {
    return Date.now() - (this.host.clock() - this.#sentAt);
  }

  /** When the lock expires unless renewed, as a Date.now() time (converted when read). */
  get expiresAt(): number {
    return Date.now() + (this.#expires - this.host.clock());
  }

  /** expiresAt less the safety margin. */
  get abortsAt(): number {
    return this.expiresAt - marginFor(this.ttlMs);
  }

  /** False from `abortsAt` on, whenever read, even before the guard timer fires. */
  get held(): boolean {
    if (this.#state === "held" && this.host.clock() >= this.#deadline)
      this.lose(this.#expiryReason);
    return this.#state === "held";
  }

  /** Throws LeaseLostError unless the lease is still held: call it right before a guarded write.
   * @example lease.assertHeld(); await db.query(write, [lease.fence]); */
  assertHeld(): void {
    if (this.held) return;
    const reason: unknown = this.#controller.signal.reason;
    throw reason instanceof LeaseLostError ? reason : new LeaseLostError(this.key, "not-owner");
  }

  /** Renews for `ttlMs` (from 1 ms) from now; false when the lock is not ours any more.
   * @example if (!(await lease.extend(10_000))) return; // lost: stop */
  async extend(ttlMs: number = this.ttlMs): Promise<boolean> {
    int(ttlMs, "ttlMs", 1, TTL_MS.max);
    if (!this.held) return false;
    const sentAt = this.host.clock();
    // A shorter expiry holds from when Redis runs the command: count on it at once.
    if (sentAt + ttlMs < this.#expires) this.#expireAt(sentAt + ttlMs);
    // The counter too once half its retention is gone (a two-key script fails mid-migration).
    const counter = sentAt - this.#counterAt >= this.request.fenceRetentionMs / 2;
    if ((await this.host.extend(this, ttlMs, counter)) !== 1) this.lose("not-owner");
    if (this.held) this.#expireAt(sentAt + ttlMs);
    if (this.held && counter) this.#counterAt = sentAt;
    return this.held;
  }

  /** withLock's watchdog: renews every ttl/3 (sooner when less than a TTL is left) within the hold
   * caps; a failed renewal loses the lease. When `signal` aborts, renewals stop and it releases. */
  keepAlive(signal?: AbortSignal): () => void {
    const { maxRenewals = Infinity, maxHoldMs = Infinity, metrics } = this.request;
    const interval = Math.max(1, Math.floor(this.ttlMs / 3));
    let renewals = 0;
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    const tick = async () => {
      if (stopped || !this.held) return;
      const ttlMs = Math.min(this.ttlMs, Math.floor(this.#sentAt + maxHoldMs - this.host.clock()));
      const capped = renewals >= maxRenewals || ttlMs <= 0;
      if (capped || ttlMs < this.ttlMs) this.#expiryReason = "renewal-capped"; // the cap is near
      if (capped) return;
      renewals += 1;
      try {
        const renewed = await this.extend(ttlMs);
        if (stopped) return;
        metrics.renewed(renewed ? "ok" : "lost");
        if (renewed) timer = this.host.setTimer(() => void tick(), interval);
      } catch (error) {
        if (stopped) return;
        metrics.renewed("error");
        this.lose("renewal-failed", error);
      }
    };
    const first = Math.min(interval, Math.floor((this.#expires - this.host.clock()) / 3));
    timer = this.host.setTimer(() => void tick(), Math.max(1, first));
    const stop = () => {
      stopped = true;
      this.host.clearTimer(timer);
      signal?.removeEventListener("abort", cancel);
    };
    // Not a loss: the caller gave up. The lock stays until the task settles (withLock releases
    // it then) or expires: work that cannot be aborted must not overlap the next holder's.
    const cancel = () => {
      stop();
      this.#givenUp = true;
      if (this.held) this.#controller.abort(signal!.reason);
    };
    if (signal?.aborted) cancel();
    else signal?.addEventListener("abort", cancel, { once: true });
    return stop;
  }

  /** Gives the lock back (owner-checked). A release that failed (Redis unreachable) may be called
   * again: it sends the release again.
   * @example try { await work(lease.fence); } finally { await lease.release(); } */
  release(): Promise<"released" | "not-owner"> {
    this.#releasing ??= this.#release().catch((error: unknown) => {
      this.#releasing = undefined;
      throw error;
    });
    return this.#releasing;
  }

  async #release(): Promise<"released" | "not-owner"> {
    const released = this.host.release(this); // sent first: the bookkeeping runs meanwhile
    if (!this.#recorded) {
      this.#recorded = true;
      void this.held; // read past its deadline, it marks the lease lost: the work outlived it
      this.#end("released");
      this.request.metrics.held((this.host.clock() - this.#sentAt) / 1000);
    }
    if ((await released) === 1) return "released";
    this.request.metrics.releaseNotOwner();
    this.host.warn(this, {}, "released a lock no longer ours (it had expired or been taken over)");
    return "not-owner";
  }

  /** Why the lease was lost (null while held, or released in time); read after the work. */
  get lost(): T.LeaseLossReason | null {
    return this.held ? null : this.#lost;
  }

  /** Marks the lease lost and aborts its signal; the holder must stop at its next step. */
  lose(reason: T.LeaseLossReason, cause?: unknown): void {
    if (this.#state !== "held") return;
    this.#lost = reason;
    this.#end("lost");
    if (this.#givenUp) return; // its signal aborted when the caller gave up
    this.request.metrics.leaseLost();
    this.host.warn(this, { reason }, "lock lease lost while its work was running");
    this.#controller.abort(new LeaseLostError(this.key, reason, cause));
  }

  /** Stops tracking a lease nobody will use (the manager gives its lock back). */
  forget(): void {
    this.#end("released");
  }

  /** Sets the expiry and the guard that aborts the signal the safety margin before it. */
  #expireAt(at: number): void {
    this.#expires = at;
    this.host.clearTimer(this.#guard);
    this.#deadline = at - marginFor(this.ttlMs);
    const left = this.#deadline - this.host.clock();
    if (left <= 0) return this.lose(this.#expiryReason);
    this.#guard = this.host.setTimer(() => this.lose(this.#expiryReason), left);
  }

  #checkedSignal(): AbortSignal {
    const signal = this.#controller.signal;
    const check = () => this.held;
    Object.defineProperties(signal, {
      aborted: { get: () => (check(), aborted.call(signal)) },
      reason: { get: () => (check(), reason.call(signal)) },
      throwIfAborted: { value: () => (check(), AbortSignal.prototype.throwIfAborted.call(signal)) },
    });
    return signal;
  }

  #end(state: "released" | "lost"): void {
    this.#state = state;
    this.host.clearTimer(this.#guard);
    this.host.forget(this);
  }
}
