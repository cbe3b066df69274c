// A held lock. Its signal aborts when the lease is lost: not ours any more, a renewal failed, the
// connection dropped, or it is about to expire (within the safety margin) without a renewal.
import { LeaseLostError } from "./types.ts";
import type { RedisLockManager } from "./manager.ts";
import { int, type LockRequest } from "./requests.ts";
import type * as T from "./types.ts";

export class LockLease implements T.Lease {
  readonly key: string;
  readonly kind: string;
  readonly ttlMs: number;
  #expiresAt: number;
  #state: "held" | "released" | "lost" = "held";
  readonly #controller = new AbortController();
  #guard: ReturnType<typeof setTimeout> | undefined;
  #releasing: Promise<"released" | "not-owner"> | undefined;
  #expiryReason: T.LeaseLossReason = "expired";

  constructor(
    readonly request: LockRequest,
    readonly token: string,
    readonly fence: number,
    /** When the acquire was sent: the lease cannot have started later. */
    readonly acquiredAt: number,
    private readonly host: RedisLockManager,
  ) {
    ({ kind: this.kind, ttlMs: this.ttlMs } = request);
    this.key = request.keys.lock;
    this.#expiresAt = acquiredAt + this.ttlMs;
    this.#armGuard();
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get expiresAt(): number {
    return this.#expiresAt;
  }

  get abortsAt(): number {
    return this.#expiresAt - this.host.config.marginFor(this.ttlMs);
  }

  get held(): boolean {
    return this.#state === "held";
  }

  /** From 1 ms: the watchdog renews for less than a TTL near a hold cap. */
  async extend(ttlMs: number = this.ttlMs): Promise<boolean> {
    int(ttlMs, "ttlMs", 1, this.host.config.ttlBounds.maxMs);
    if (!this.held) return false;
    const sentAt = Date.now();
    // A shorter expiry holds from when Redis runs the command: count on it at once.
    if (sentAt + ttlMs < this.#expiresAt) {
      this.#expiresAt = sentAt + ttlMs;
      this.#armGuard();
    }
    if ((await this.host.extend(this, ttlMs)) !== 1) {
      this.lose("not-owner");
      return false;
    }
    if (!this.held) return false;
    this.#expiresAt = sentAt + ttlMs;
    this.#armGuard();
    return true;
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
    const message = "released a lock that was no longer ours (it had expired or been taken over)";
    this.host.warn(this, {}, message);
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

  /** The caller gave up: abort the signal with its reason (not a loss; the holder releases). */
  abort(reason: unknown): void {
    if (this.held) this.#controller.abort(reason);
  }

  /** The watchdog stopped renewing on purpose: say so when the lease runs out. */
  markCapped(): void {
    this.#expiryReason = "renewal-capped";
  }

  /** Stops tracking a lease nobody will use (the manager gives its lock back). */
  forget(): void {
    this.#end("released");
  }

  #armGuard(): void {
    this.host.clearTimer(this.#guard);
    const left = this.abortsAt - Date.now();
    if (left <= 0) return this.lose(this.#expiryReason);
    this.#guard = this.host.setTimer(() => this.lose(this.#expiryReason), left);
  }

  #end(state: "released" | "lost"): void {
    this.#state = state;
    this.host.clearTimer(this.#guard);
    this.#guard = undefined;
    this.host.forget(this);
  }
}
