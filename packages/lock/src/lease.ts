// A held lock. Its signal aborts when the lease is lost: not ours any more, a renewal failed, the
// connection dropped, or it is about to expire (within the safety margin) without a renewal.
import { LeaseLostError, type LeaseLossReason } from "./errors.ts";
import type { LockKeys } from "./keys.ts";
import type { KindMetrics } from "./metrics.ts";
import type { CommandRunner } from "./commands.ts";
import { extendScript, releaseScript } from "./scripts.ts";
import type { TimerHandle, Timers } from "./timers.ts";
import type { Lease, LockLogger, ReleaseOutcome } from "./types.ts";

/** What a lease needs from its manager: Redis calls, timers, and where to report. */
export interface LeaseHost {
  extend(lease: LockLease, ttlMs: number): Promise<boolean>;
  /** 1 when released, 0 when the lock was not ours (any more). */
  release(lease: LockLease): Promise<unknown>;
  /** The lease is over (released or lost): stop tracking it. */
  forget(lease: LockLease): void;
  setTimer(fn: () => void, ms: number): TimerHandle;
  clearTimer(handle: TimerHandle | undefined): void;
  checkTtl(ttlMs: number): number;
  safetyMarginMs(ttlMs: number): number;
  warn(lease: LockLease, fields: object, message: string): void;
}

/** The LeaseHost of a manager: its Redis calls by script, its timers, its logger. */
export function leaseHost(deps: {
  runner: CommandRunner;
  /** Channel prefix of the namespace's managers (release.lua appends the next waiter's manager). */
  inbox: string;
  fenceRetentionOf(kind: string): number;
  /** The manager's held leases by token. */
  leases: Map<string, LockLease>;
  timers: Timers;
  checkTtl(ttlMs: number): number;
  safetyMarginMs(ttlMs: number): number;
  logger: LockLogger;
}): LeaseHost {
  const { runner, timers, logger } = deps;
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
        deps.inbox,
        deps.fenceRetentionOf(kind),
      ]),
    forget: (lease) => deps.leases.delete(lease.token),
    setTimer: (fn, ms) => timers.set(fn, ms),
    clearTimer: (handle) => timers.clear(handle),
    checkTtl: deps.checkTtl,
    safetyMarginMs: deps.safetyMarginMs,
    warn: (lease, fields, message) =>
      logger.warn(
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

type LeaseState = "held" | "released" | "lost";

export class LockLease implements Lease {
  readonly key: string;
  readonly acquiredAt: number;
  #expiresAt: number;
  #state: LeaseState = "held";
  /** Made on first use: most leases are released without anyone looking at their signal. */
  #controller: AbortController | undefined;
  #guard: TimerHandle | undefined;
  #releasing: Promise<ReleaseOutcome> | undefined;
  #expiryReason: LeaseLossReason = "expired";
  /** Whether anyone took the signal: only then does an expiry timer run (see `signal`). */
  #watched = false;

  constructor(
    readonly keys: LockKeys,
    readonly kind: string,
    readonly token: string,
    readonly fence: number,
    /** When the acquire command was sent: the lease cannot have started later than this. */
    sentAt: number,
    readonly ttlMs: number,
    readonly metrics: KindMetrics,
    readonly requestId: string | undefined,
    private readonly host: LeaseHost,
  ) {
    this.key = keys.lock;
    this.acquiredAt = sentAt;
    this.#expiresAt = sentAt + ttlMs;
  }

  /**
   * Aborts when the lease is lost. The expiry timer behind it starts on first access: a holder
   * that never looks at the signal pays for no timer, and its lease running out is still
   * counted, when it releases.
   */
  get signal(): AbortSignal {
    if (!this.#watched) {
      this.#watched = true;
      if (this.#state === "held") this.#armGuard();
    }
    return (this.#controller ??= new AbortController()).signal;
  }

  get expiresAt(): number {
    return this.#expiresAt;
  }

  get abortsAt(): number {
    return this.#expiresAt - this.host.safetyMarginMs(this.ttlMs);
  }

  get held(): boolean {
    return this.#state === "held";
  }

  extend(ttlMs: number = this.ttlMs): Promise<boolean> {
    return this.renew(this.host.checkTtl(ttlMs));
  }

  /** extend() without the TTL bounds check: the watchdog may renew for less near a hold cap. */
  async renew(ttlMs: number): Promise<boolean> {
    if (this.#state !== "held") return false;
    const sentAt = Date.now();
    // A shorter expiry holds from when Redis runs the command, which may be long before its reply
    // comes back: count on it at once (a longer one only once Redis confirmed it).
    if (sentAt + ttlMs < this.#expiresAt) {
      this.#expiresAt = sentAt + ttlMs;
      if (this.#watched) this.#armGuard();
      if (this.#state !== "held") return false;
    }
    const extended = await this.host.extend(this, ttlMs);
    if (!extended) {
      this.lose("not-owner");
      return false;
    }
    if (this.#state !== "held") return false;
    this.#expiresAt = sentAt + ttlMs;
    if (this.#watched) this.#armGuard();
    return true;
  }

  release(): Promise<ReleaseOutcome> {
    this.#releasing ??= this.#release();
    return this.#releasing;
  }

  #release(): Promise<ReleaseOutcome> {
    const released = this.host.release(this); // sent first: the bookkeeping runs while Redis works
    const now = Date.now();
    if (this.#state === "held" && now >= this.#expiresAt - this.host.safetyMarginMs(this.ttlMs))
      this.lose(this.#expiryReason); // the work outlived the lease: count it as lost
    this.#end("released");
    this.metrics.held((now - this.acquiredAt) / 1000);
    return released.then((reply) => (reply === 1 ? "released" : this.#notOwner()));
  }

  #notOwner(): ReleaseOutcome {
    this.metrics.releaseNotOwner();
    this.host.warn(
      this,
      {},
      "released a lock that was no longer ours (it had expired or been taken over)",
    );
    return "not-owner";
  }

  /** Marks the lease lost and aborts its signal; the holder must stop at its next step. */
  lose(reason: LeaseLossReason, cause?: unknown): void {
    if (this.#state !== "held") return;
    this.#end("lost");
    this.metrics.leaseLost();
    this.host.warn(this, { reason }, "lock lease lost while its work was running");
    (this.#controller ??= new AbortController()).abort(new LeaseLostError(this.key, reason, cause));
  }

  /**
   * The caller gave up (withLock's own signal aborted): aborts the lease's signal with the
   * caller's reason. Not a loss: the holder releases the lock itself.
   */
  abort(reason: unknown): void {
    if (this.#state !== "held") return;
    (this.#controller ??= new AbortController()).abort(reason);
  }

  /** The watchdog stopped renewing on purpose (a cap was reached): say so when the lease runs out. */
  markCapped(): void {
    this.#expiryReason = "renewal-capped";
  }

  /** Aborts the signal when the lease is about to expire without a renewal (at once if it is already). */
  #armGuard(): void {
    this.host.clearTimer(this.#guard);
    this.#guard = undefined;
    const left = this.abortsAt - Date.now();
    if (left <= 0) return this.lose(this.#expiryReason); // a timer would leave the signal live until it fires
    this.#guard = this.host.setTimer(() => this.lose(this.#expiryReason), left);
  }

  #end(state: LeaseState): void {
    this.#state = state;
    this.host.clearTimer(this.#guard);
    this.#guard = undefined;
    this.host.forget(this);
  }
}
