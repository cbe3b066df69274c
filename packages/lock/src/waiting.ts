// Layer: fair waiting. A caller that finds the lock taken waits in line instead of polling: behind
// the callers of this process waiting for the same key (only the first of them asks Redis), and,
// across processes, with this manager's place in the key's line in Redis (acquire.lua). A release
// hands the lock straight to the first live waiter and tells its manager by pub/sub
// (release.lua, WaitQueues); a randomised backoff re-check covers a lost message.
//
// What it adds: waiters are served in arrival order, a release wakes exactly one waiter (which
// already holds the lock), and a contended key costs a few round trips per second per waiting
// process rather than one per retry interval per waiter.
// What it costs: this file, waiter.ts, wait-queues.ts, backoff.ts, the line and ticket keys, the
// acquire.lua and release.lua hand-off code, one subscriber connection per manager.
// When to leave it out: every kind tries once (waitMs 0), or waits are rare and short: a retry
// loop with Backoff around the try then does.
import { Backoff } from "./backoff.ts";
import { LockUnavailableError } from "./errors.ts";
import type { LockKeys } from "./keys.ts";
import type { LockLease } from "./lease.ts";
import type { LockRequest } from "./requests.ts";
import { newToken } from "./tokens.ts";
import type { WaitQueues } from "./wait-queues.ts";
import type { Waiter } from "./waiter.ts";

/** One round trip's result: the lease, or how long (ms) the lock stays taken. */
export type Attempt = { lease: LockLease; pttl?: undefined } | { lease?: undefined; pttl: number };

/** How many contended keys a manager remembers. */
const CONTENDED_KEYS = 1024;

/** What the waiting needs from its manager. */
export interface WaitingHost {
  queues: WaitQueues;
  backoff: { baseMs: number; maxMs: number };
  /** The acquire script for `waiter`, which keeps this manager in line until `deadline`. */
  attempt(request: LockRequest, waiter: Waiter, deadline: number): Promise<Attempt>;
  /** The lease a release handed to `waiter`. */
  handedLease(request: LockRequest, waiter: Waiter): Promise<LockLease>;
  /** A lease nobody will take: forget it and give its lock back. */
  discard(lease: LockLease): void;
  /** Owner-checked give-back of a lock set to `token`, optionally leaving the key's line. */
  giveBack(keys: LockKeys, token: string, leaveLine: boolean, retentionMs: number): void;
}

export class FairWaiting {
  /** Keys whose last wait here found them taken, oldest first (see joinsLineAtOnce). */
  readonly #contended = new Set<string>();

  constructor(private readonly host: WaitingHost) {}

  /**
   * Whether a caller that may wait skips the plain try and joins the line at once: when others of
   * this process already wait for the key (it must not pass them), when its last wait here found
   * the key taken (a contended key is taken again when asked for: the try would cost a round trip
   * for nothing), or when it can be cancelled (only a wait is raced against its signal).
   */
  joinsLineAtOnce(request: LockRequest): boolean {
    if (request.waitMs === 0) return false;
    const key = request.keys.lock;
    return (
      request.signal !== undefined || this.host.queues.waiting(key) || this.#contended.has(key)
    );
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
  async wait(request: LockRequest, deadline: number): Promise<LockLease | undefined> {
    const waiter = this.host.queues.join(request.keys.lock, newToken(), request.signal);
    let backoff: Backoff | undefined; // only a wait that sleeps needs one
    let lease: LockLease | undefined;
    try {
      let ask = true;
      let recheckAt = Infinity; // when the holder's lease runs out, as last seen
      for (;;) {
        if (waiter.handover) return (lease = await this.host.handedLease(request, waiter));
        if (ask && this.host.queues.isFirst(waiter)) {
          waiter.takeNotified();
          let result: Attempt;
          try {
            // Without a signal only close() can cancel, and it may let a round trip finish.
            result = await (request.signal
              ? this.#attemptWhileWaiting(request, waiter, deadline)
              : this.host.attempt(request, waiter, deadline));
          } catch (error) {
            // Abandoned or timed out, it may still have run and put us in line.
            if (
              waiter.cancelled ||
              (error instanceof LockUnavailableError && error.reason === "timeout")
            )
              waiter.joinedLine();
            throw error;
          }
          if (result.lease) {
            if (!waiter.inLine) this.#contended.delete(request.keys.lock); // free at the first ask
            return (lease = result.lease);
          }
          this.#rememberContended(request.keys.lock);
          waiter.joinedLine(); // busy: the script put this manager in line, with our ticket
          if (!this.host.queues.listening && waiter.asksToSubscribe()) {
            // The first wait of this manager: subscribe its channel, then ask once more, since
            // a hand-off published before the subscription took effect went unheard (the lock
            // is then already ours, and the attempt says so).
            if (await waiter.race(this.host.queues.listen())) continue;
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
        backoff ??= new Backoff(this.host.backoff);
        const delay = this.host.queues.isFirst(waiter)
          ? Math.min(backoff.next(), recheckAt - now, left)
          : left;
        ask = (await waiter.sleep(delay)) !== "handed";
      }
    } finally {
      const wasLast = this.host.queues.leave(waiter);
      const leaveLine = wasLast && waiter.inLine;
      if (!lease && (leaveLine || waiter.handover)) {
        // Leaving without the lock: step out of line if nobody here waits any more, and pass on
        // the lock if a release handed it to us meanwhile (the script checks our token).
        this.host.giveBack(request.keys, waiter.token, leaveLine, request.fenceRetentionMs);
      }
    }
  }

  /** The first waiter's attempt. If the wait is cancelled meanwhile, a lock that comes late is given back. */
  async #attemptWhileWaiting(
    request: LockRequest,
    waiter: Waiter,
    deadline: number,
  ): Promise<Attempt> {
    const attempt = this.host.attempt(request, waiter, deadline);
    try {
      return await waiter.race(attempt);
    } catch (error) {
      // Nobody will take a lock that comes late: give it back quietly (the wait's own give-back
      // may have released it already, and a release would then count as not ours).
      if (waiter.cancelled)
        attempt.then(
          (late) => late.lease && this.host.discard(late.lease),
          () => {},
        );
      throw error;
    }
  }
}
