// The callers of this process waiting for locks, per lock key in arrival order, and the one
// subscriber connection on which this manager is told that a lock was handed to it.
//
// Within the process only the first waiter of a key asks Redis; the others sleep until they are
// first. Across processes, each manager with waiters for a key has one place in the key's line in
// Redis, with a ticket for its first waiter (see scripts/release.lua): a release sets the lock to
// that waiter's token and tells its manager on its channel, so a release wakes exactly one waiter,
// which already holds the lock.
import type { LockSubscriberClient } from "./waiting.ts";
import type { TimerHandle, Timers } from "./waiter.ts";
import { Waiter, type Handover } from "./waiter.ts";

export class WaitQueues {
  /** The waiters per lock key, in arrival order (the first one asks Redis). */
  #lines = new Map<string, Waiter[]>();
  #subscriber: LockSubscriberClient | undefined;
  #subscribed: Promise<boolean> | undefined;
  #listening = false;
  #closed = false;
  readonly #onMessage = (channel: string, message: string) => {
    if (channel === this.channel) this.#handedOver(message);
  };

  constructor(
    /** This manager's channel. */
    readonly channel: string,
    private readonly options: {
      /** The caller's subscriber connection (left open on close), if given. */
      subscriber: LockSubscriberClient | undefined;
      /** Opens one otherwise (on the first wait; closed on close). */
      connect: () => LockSubscriberClient;
      timers: Timers;
      timeoutMs: number;
      /** A lock was handed to a token of ours that no waiter claims any more: pass it on. */
      unclaimed: (lockKey: string, token: string) => void;
    },
  ) {}

  /** Joins the line for `lockKey`, behind the waiters of this process already in it. */
  join(lockKey: string, token: string, signal: AbortSignal | undefined): Waiter {
    const waiter = new Waiter(lockKey, token, this.options.timers, signal);
    const line = this.#lines.get(lockKey);
    if (!line) {
      this.#lines.set(lockKey, [waiter]);
      return waiter;
    }
    line.push(waiter);
    waiter.joinedLine(); // others of this manager wait: its place in Redis's line may be theirs
    return waiter;
  }

  /** Whether this manager's channel is subscribed, so that a hand-off to it is heard. */
  get listening(): boolean {
    return this.#listening;
  }

  /**
   * Subscribes this manager's channel (once; opening the subscriber connection on first use).
   * Resolves true once subscribed, false when that failed or timed out: waiters then re-check on
   * their timers only, and the next wait tries again.
   */
  listen(): Promise<boolean> {
    if (this.#closed) return Promise.resolve(false); // a wait still finishing an attempt must not reopen it
    return this.#subscribe();
  }

  /** Whether callers of this process wait for `lockKey`. */
  waiting(lockKey: string): boolean {
    return this.#lines.has(lockKey);
  }

  isFirst(waiter: Waiter): boolean {
    return this.#lines.get(waiter.lockKey)?.[0] === waiter;
  }

  /**
   * Leaves the line; returns true when it was the last waiter of this process for the key. When
   * the first waiter leaves (with the lock or without it), the next one asks Redis at once: that
   * attempt puts its own ticket in line.
   */
  leave(waiter: Waiter): boolean {
    waiter.dispose();
    const line = this.#lines.get(waiter.lockKey);
    const at = line ? line.indexOf(waiter) : -1;
    if (!line || at < 0) return false;
    line.splice(at, 1);
    if (line.length === 0) {
      this.#lines.delete(waiter.lockKey);
      return true;
    }
    if (at === 0) line[0]!.notify();
    return false;
  }

  get waiterCount(): number {
    let count = 0;
    for (const line of this.#lines.values()) count += line.length;
    return count;
  }

  get subscriptionCount(): number {
    return this.#subscriber ? 1 : 0;
  }

  /**
   * Ends every wait with `reason` and closes (or, if it is the caller's, unsubscribes) the
   * subscriber. Each cancelled wait then leaves as an aborted one does: the last to leave a key
   * takes this manager out of Redis's line, so no release hands the lock to a waiter that is gone.
   */
  close(reason: unknown): void {
    this.#closed = true;
    for (const line of [...this.#lines.values()])
      for (const waiter of [...line]) waiter.cancel(reason);
    const subscriber = this.#subscriber;
    this.#subscriber = undefined;
    this.#subscribed = undefined;
    this.#listening = false;
    if (!subscriber) return;
    subscriber.off("message", this.#onMessage);
    if (subscriber !== this.options.subscriber) subscriber.disconnect();
    else subscriber.unsubscribe(this.channel).catch(() => {});
  }

  /** "token fence ttl server-ms lock-key", from scripts/release.lua. */
  #handedOver(message: string): void {
    const [token, fence, ttl, serverMs, lockKey] = message.split(" ");
    if (!token || !lockKey) return;
    const handover: Handover = {
      fence: Number(fence),
      ttlMs: Number(ttl),
      serverMs: Number(serverMs),
    };
    const waiter = this.#lines.get(lockKey)?.find((w) => w.token === token);
    if (!waiter?.handOver(handover)) this.options.unclaimed(lockKey, token);
  }

  /** Subscribes this manager's channel once; later waits reuse the subscription. */
  #subscribe(): Promise<boolean> {
    if (this.#subscribed) return this.#subscribed;
    let subscriber = this.#subscriber;
    if (!subscriber) {
      subscriber = this.#subscriber = this.options.subscriber ?? this.options.connect();
      subscriber.on("message", this.#onMessage);
    }
    // Bounded like any command; the timer belongs to the subscription, not to a wait.
    let timer: TimerHandle | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), this.options.timeoutMs).unref();
    });
    const subscribed = Promise.race([subscriber.subscribe(this.channel).then(() => true), timeout])
      .catch(() => false)
      .then((ok) => {
        clearTimeout(timer);
        if (this.#subscribed !== subscribed) return ok; // closed meanwhile
        if (ok) this.#listening = true;
        else this.#subscribed = undefined; // try again on the next wait
        return ok;
      });
    this.#subscribed = subscribed;
    return subscribed;
  }
}
