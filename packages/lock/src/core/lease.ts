// A held lock: pass its `fence` with the writes it guards, and stop when its `signal` aborts:
// the lock is not ours any more, a renewal failed, the connection dropped, or it is about to
// expire (within the safety margin) without a renewal.
import { LeaseLostError } from "./types.ts";
import type { RedisLockManager } from "./manager.ts";
import { int, marginFor, TTL_MS, type LockRequest } from "./requests.ts";
import type * as T from "./types.ts";

/** What a holder sees of its lease. */
export type Lease = Omit<LockLease, "request" | "lose" | "keepAlive" | "forget">;

export class LockLease {
  readonly key: string; // {namespace:lock:kind:id}: a Cluster hash tag shared with its fence
  readonly kind: string;
  readonly ttlMs: number;
  #expiresAt = 0;
  #state: "held" | "released" | "lost" = "held";
  readonly #controller = new AbortController(); // Node.js makes its signal on first read
  #guard: NodeJS.Timeout | undefined;
  #releasing: Promise<"released" | "not-owner"> | undefined;
  #expiryReason: T.LeaseLossReason = "expired";

  constructor(
    readonly request: LockRequest,
    readonly token: string,
    readonly fence: number, // grows per key across holders and failovers (server clock floor)
    readonly acquiredAt: number, // when the acquire was sent: the lease cannot have started later
    private readonly host: RedisLockManager,
  ) {
    ({ kind: this.kind, ttlMs: this.ttlMs } = request);
    this.key = request.keys.lock;
    this.#expireAt(acquiredAt + this.ttlMs);
  }

  /** Aborts when the lease is lost or about to expire unrenewed (at `abortsAt`). */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get expiresAt(): number {
    return this.#expiresAt;
  }

  /** expiresAt less the safety margin. */
  get abortsAt(): number {
    return this.#expiresAt - marginFor(this.ttlMs);
  }

  get held(): boolean {
    return this.#state === "held";
  }

  /** Renews for `ttlMs` (from 1 ms) from now; false when the lock is not ours any more. */
  async extend(ttlMs: number = this.ttlMs): Promise<boolean> {
    int(ttlMs, "ttlMs", 1, TTL_MS.max);
    if (!this.held) return false;
    const sentAt = Date.now();
    // A shorter expiry holds from when Redis runs the command: count on it at once.
    if (sentAt + ttlMs < this.#expiresAt) this.#expireAt(sentAt + ttlMs);
    if ((await this.host.extend(this, ttlMs)) !== 1) this.lose("not-owner");
    if (this.held) this.#expireAt(sentAt + ttlMs);
    return this.held;
  }

  /**
   * withLock's watchdog: renews every ttl/3 (sooner at first if less than a TTL is left), never
   * past the hold caps. A failed renewal loses the lease; a late one lets the expiry guard abort
   * it. When `signal` aborts, renewals stop, the lease's signal aborts, the lock is released.
   */
  keepAlive(signal?: AbortSignal): () => void {
    const { maxRenewals = Infinity, maxHoldMs = Infinity, metrics } = this.request;
    const interval = Math.max(1, Math.floor(this.ttlMs / 3));
    let renewals = 0;
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    const tick = async () => {
      if (stopped || !this.held) return;
      const ttlMs = Math.min(this.ttlMs, this.acquiredAt + maxHoldMs - Date.now());
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
    const first = Math.min(interval, Math.floor((this.#expiresAt - Date.now()) / 3));
    timer = this.host.setTimer(() => void tick(), Math.max(1, first));
    const stop = () => {
      stopped = true;
      this.host.clearTimer(timer);
      signal?.removeEventListener("abort", cancel);
    };
    const cancel = () => {
      stop();
      if (this.held) this.#controller.abort(signal!.reason); // not a loss: the caller gave up
      this.release().catch(() => {}); // a failure is logged by withLock's own release
    };
    if (signal?.aborted) cancel();
    else signal?.addEventListener("abort", cancel, { once: true });
    return stop;
  }

  release(): Promise<"released" | "not-owner"> {
    return (this.#releasing ??= this.#release());
  }

  async #release(): Promise<"released" | "not-owner"> {
    const released = this.host.release(this); // sent first: the bookkeeping runs meanwhile
    const now = Date.now();
    if (this.held && now >= this.abortsAt) this.lose(this.#expiryReason); // the work outlived the lease
    this.#end("released");
    this.request.metrics.held((now - this.acquiredAt) / 1000);
    if ((await released) === 1) return "released";
    this.request.metrics.releaseNotOwner();
    this.host.warn(this, {}, "released a lock no longer ours (it had expired or been taken over)");
    return "not-owner";
  }

  /** Marks the lease lost and aborts its signal; the holder must stop at its next step. */
  lose(reason: T.LeaseLossReason, cause?: unknown): void {
    if (!this.held) return;
    this.#end("lost");
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
    this.#expiresAt = at;
    this.host.clearTimer(this.#guard);
    const left = this.abortsAt - Date.now();
    if (left <= 0) return this.lose(this.#expiryReason);
    this.#guard = this.host.setTimer(() => this.lose(this.#expiryReason), left);
  }

  #end(state: "released" | "lost"): void {
    this.#state = state;
    this.host.clearTimer(this.#guard);
    this.host.forget(this);
  }
}
