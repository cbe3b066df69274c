// Layer: fair waiting. A caller that finds the lock taken waits in line instead of polling:
// behind the callers of this process waiting for the same key (only the first of them asks
// Redis), and, across processes, with this manager's place in the key's line in Redis
// (acquire.lua). A release hands the lock straight to the first live waiter and tells its manager
// by pub/sub (release.lua, wait-queues.ts); a randomised backoff re-check covers a lost message.
//
// What it adds: waiters are served in arrival order, a release wakes exactly one waiter (which
// already holds the lock), and a contended key costs a few round trips per second per waiting
// process rather than one per retry per waiter.
// What it costs: this folder (waiting.ts, waiter.ts, wait-queues.ts, acquire.lua, release.lua),
// the line and ticket keys, one subscriber connection per manager.
// When to leave it out: every kind tries once (waitMs 0), or waits are rare and short: the core
// then retries the try script after a randomised backoff until the wait runs out.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { Backoff } from "../../core/manager.ts";
import { MAX_WAIT_MS, newToken } from "../../core/requests.ts";
import { FENCE_LUA, LuaScript } from "../../core/scripts.ts";
import {
  LockUnavailableError,
  type Lease,
  type Layer,
  type LayerHost,
  type LockKeys,
  type LockRequest,
  type WaitingLayer,
} from "../../core/types.ts";
import { WaitQueues } from "./wait-queues.ts";
import type { Waiter } from "./waiter.ts";

/** The subscriber connection: this manager's channel only. */
export interface LockSubscriberClient {
  subscribe(...channels: string[]): Promise<unknown>;
  unsubscribe(...channels: string[]): Promise<unknown>;
  on(event: "message", listener: (channel: string, message: string) => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  off(event: "message", listener: (channel: string, message: string) => void): unknown;
  disconnect(): void;
}

const load = (name: string, keyCount: number) =>
  new LuaScript(
    name,
    FENCE_LUA + readFileSync(new URL(`./${name}.lua`, import.meta.url), "utf8"),
    keyCount,
  );
/** `{1, fence}` (`{1, fence, pttl}` when handed over earlier) when acquired, `{0, pttl, server ms}` when busy. */
export const acquireScript = load("acquire", 4);
/** 1 when released (and handed to the first live waiter in line), 0 when the lock is not ours. */
export const releaseScript = load("release", 4);

/** The line keys beside a lock key (same hash tag, same slot). */
export const lineKeys = (lock: string) => [
  lock,
  `${lock}:fence`,
  `${lock}:queue`,
  `${lock}:tickets`,
];
/** The channel prefix of a namespace's managers (release.lua appends the manager id). */
export const inboxPrefix = (namespace: string) => `${namespace}:lock:inbox:`;

type Attempt = { lease: Lease; pttl?: undefined } | { lease?: undefined; pttl: number };
/** How many contended keys a manager remembers (see waitsAtOnce). */
const CONTENDED_KEYS = 1024;

/**
 * @example
 * createLockManager({ ...options, layers: { waiting: fairWaiting({ subscriber: new Redis(url) }) } });
 */
export function fairWaiting(
  options: { subscriber?: LockSubscriberClient } = {},
): Layer<WaitingLayer> {
  return (host) => new FairWaiting(host, options.subscriber);
}

class FairWaiting implements WaitingLayer {
  /** Names this manager in the lines it waits in, and its channel. */
  readonly #id = randomBytes(12).toString("base64url");
  readonly #inbox: string;
  readonly #queues: WaitQueues;
  /** Keys whose last wait here found them taken, oldest first. */
  readonly #contended = new Set<string>();

  constructor(
    private readonly host: LayerHost,
    subscriber: LockSubscriberClient | undefined,
  ) {
    this.#inbox = inboxPrefix(host.config.namespace);
    const redis = host.redis;
    this.#queues = new WaitQueues(this.#inbox + this.#id, {
      subscriber,
      connect: () => {
        if (!redis.duplicate)
          throw new Error("fair waiting needs a subscriber or a client with duplicate()");
        const opened = <LockSubscriberClient>redis.duplicate({
          enableOfflineQueue: true,
          connectionName: "orderbot-lock-subscriber",
        });
        // While it is down, waiters fall back to their re-check timers.
        opened.on("error", (error) =>
          host.logger.debug({ err: error.message }, "lock subscriber connection error"),
        );
        return opened;
      },
      timers: { set: (fn, ms) => host.setTimer(fn, ms), clear: (t) => host.clearTimer(t) },
      timeoutMs: host.config.commandTimeoutMs,
      unclaimed: (lockKey, token) => {
        if (!host.holds(token)) this.#giveBack(lockKey, token, false, host.config.fenceRetentionMs); // our own attempt found it first otherwise
      },
    });
  }

  get waiters(): number {
    return this.#queues.waiterCount;
  }

  get subscriptions(): number {
    return this.#queues.subscriptionCount;
  }

  close(reason: unknown): void {
    this.#queues.close(reason);
  }

  release(keys: LockKeys, token: string, retentionMs: number): Promise<unknown> {
    return releaseScript.run(this.host.redis, lineKeys(keys.lock), [
      token,
      this.#inbox,
      retentionMs,
    ]);
  }

  /**
   * Whether a caller skips the plain try and joins the line at once: others of this process wait
   * for the key (it must not pass them), its last wait here found the key taken (the try would
   * cost a round trip for nothing), or it can be cancelled (only a wait is raced against its signal).
   */
  waitsAtOnce(request: LockRequest): boolean {
    const key = request.keys.lock;
    return request.signal !== undefined || this.#queues.waiting(key) || this.#contended.has(key);
  }

  /**
   * Waits in line. Only the first waiter of this process asks Redis: at once, then when the one
   * ahead leaves, or when its re-check timer fires (randomised backoff, never later than the
   * holder's remaining TTL). Its attempts keep this manager in the key's line with a ticket
   * carrying the waiter's token, so a release elsewhere sets the lock to that token and tells us.
   */
  async wait(request: LockRequest, deadline: number): Promise<Lease | undefined> {
    const waiter = this.#queues.join(request.keys.lock, newToken(), request.signal);
    const backoff = new Backoff(this.host.config.backoff);
    let lease: Lease | undefined;
    try {
      let ask = true;
      let recheckAt = Infinity; // when the holder's lease runs out, as last seen
      for (;;) {
        if (waiter.handover) return (lease = await this.#handedLease(request, waiter));
        if (ask && this.#queues.isFirst(waiter)) {
          const result = await this.#ask(request, waiter, deadline);
          if (result.lease) {
            if (!waiter.inLine) this.#contended.delete(request.keys.lock); // free at the first ask
            return (lease = result.lease);
          }
          this.#remember(request.keys.lock);
          waiter.joinedLine(); // busy: the script put this manager in line, with our ticket
          // The first wait of this manager subscribes its channel, then asks once more: a
          // hand-off published before the subscription took effect went unheard.
          if (
            !this.#queues.listening &&
            waiter.asksToSubscribe() &&
            (await waiter.race(this.#queues.listen()))
          )
            continue;
          if (waiter.takeNotified()) continue; // the waiter ahead left while we asked
          recheckAt = result.pttl >= 0 ? performance.now() + result.pttl + 1 : Infinity;
        }
        const now = performance.now();
        const left = deadline - now;
        if (left <= 0) {
          if (waiter.handover) continue; // handed to us while the last reply was on its way
          return undefined;
        }
        const delay = this.#queues.isFirst(waiter)
          ? Math.min(backoff.next(), recheckAt - now, left)
          : left;
        ask = (await waiter.sleep(delay)) !== "handed";
      }
    } finally {
      const leaveLine = this.#queues.leave(waiter) && waiter.inLine;
      // Leaving without the lock: step out of line if nobody here waits any more, and pass on
      // the lock if a release handed it to us meanwhile (the script checks our token).
      if (!lease && (leaveLine || waiter.handover))
        this.#giveBack(request.keys.lock, waiter.token, leaveLine, request.fenceRetentionMs);
    }
  }

  /** The first waiter's attempt; a lock that comes after the wait was cancelled is given back. */
  async #ask(request: LockRequest, waiter: Waiter, deadline: number): Promise<Attempt> {
    waiter.takeNotified();
    const attempt = this.#attempt(request, waiter, deadline);
    try {
      // Without a signal only close() can cancel, and it may let a round trip finish.
      return await (request.signal ? waiter.race(attempt) : attempt);
    } catch (error) {
      // Abandoned or timed out, it may still have run and put us in line.
      if (waiter.cancelled || (error instanceof LockUnavailableError && error.reason === "timeout"))
        waiter.joinedLine();
      if (waiter.cancelled)
        attempt.then(
          (late) => late.lease && this.host.discard(late.lease),
          () => {},
        );
      throw error;
    }
  }

  /** One acquire.lua round trip for `waiter`, keeping this manager in line until `deadline`. */
  async #attempt(request: LockRequest, waiter: Waiter, deadline: number): Promise<Attempt> {
    const { keys, kind, ttlMs, fenceRetentionMs } = request;
    const sentAt = Date.now();
    waiter.attemptSent(sentAt);
    const args = [
      waiter.token,
      ttlMs,
      fenceRetentionMs,
      this.#id,
      Math.max(1, Math.ceil(deadline - performance.now())), // ms it will still wait
      MAX_WAIT_MS + ttlMs, // how long the line is kept: the longest wait plus a TTL
      // Taking a free lock, the script leaves the line only if this manager may be in it.
      waiter.inLine ? 1 : 0,
    ];
    let reply: [number, number, number?];
    try {
      reply = (await this.host.run("acquire", kind, () =>
        acquireScript.run(this.host.redis, lineKeys(keys.lock), args),
      )) as [number, number, number?];
    } catch (error) {
      // Timed out: Redis may still run it; a give-back sent now runs after it.
      if (error instanceof LockUnavailableError && error.reason === "timeout")
        this.#giveBack(keys.lock, waiter.token, false, fenceRetentionMs);
      throw error;
    }
    if (reply[0] !== 1) {
      if (reply[2] !== undefined) waiter.heardBusy(sentAt, reply[2]);
      return { pttl: reply[1] };
    }
    // A lock handed to this token earlier says how long it has left; one we just set, its full TTL.
    const handed = reply[2] !== undefined;
    const startedAt = handed ? sentAt + reply[2]! - ttlMs : sentAt;
    return { lease: await this.host.lease(request, waiter.token, reply[1], startedAt, handed) };
  }

  /** The lease a release handed to `waiter` (its lock already set to the waiter's token). */
  #handedLease(request: LockRequest, waiter: Waiter): Promise<Lease> {
    const { fence, serverMs } = waiter.handover!;
    return this.host.lease(request, waiter.token, fence, waiter.handoverStartedAt(serverMs), true);
  }

  /** Remembers that a wait for `key` found it taken, keeping the last CONTENDED_KEYS keys. */
  #remember(key: string): void {
    if (this.#contended.has(key)) return;
    if (this.#contended.size >= CONTENDED_KEYS)
      this.#contended.delete(this.#contended.values().next().value!);
    this.#contended.add(key);
  }

  /** Owner-checked give-back of a lock set to `token`, optionally leaving the key's line; best effort. */
  #giveBack(lock: string, token: string, leaveLine: boolean, retentionMs: number): void {
    const args: (string | number)[] = [token, this.#inbox, retentionMs];
    if (leaveLine) args.push(this.#id);
    releaseScript.run(this.host.redis, lineKeys(lock), args).catch(() => {});
  }
}
