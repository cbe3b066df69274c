// Layer: fair waiting. A caller that finds the lock taken takes a ticket in the key's line in Redis.
// A release hands the lock straight to the oldest live ticket (its token and a new fence, for a
// claim of the waiter's command timeout) and tells its manager; the waiter's next ask confirms it
// for its TTL, so a dead ticket costs the line a claim, not a TTL. A randomised backoff re-check,
// never later than the holder's expiry, covers a lost message and a holder that died: a re-check
// that finds the lock free hands it to the oldest live ticket, as a release would.
//
// What it adds: waiters are served in arrival order, also after a holder died; a release wakes
// exactly one waiter, which confirms the lock it was handed with one round trip.
// What it costs: the line and ticket keys beside each contended lock, one subscriber connection
// per manager, and this release script in place of the core's.
// When to leave it out: every kind tries once (waitMs 0), or waits are rare and short: the core
// then retries its try script after a randomised backoff until the wait runs out.
import { randomBytes } from "node:crypto";
import { backoff } from "../core/manager.ts";
import { FENCE_RETENTION_MS, MAX_WAIT_MS, newToken } from "../core/requests.ts";
import { FENCE_LUA, LuaScript, runCommand } from "../core/scripts.ts";
import type { RedisLockManager } from "../core/manager.ts";
import type * as T from "../core/types.ts";

/** The subscriber connection: this manager's channel only. */
export interface LockSubscriberClient {
  subscribe(...channels: string[]): Promise<unknown>;
  unsubscribe(...channels: string[]): Promise<unknown>;
  on(event: "message", listener: (channel: string, message: string) => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  off(event: "message", listener: (channel: string, message: string) => void): unknown;
  disconnect(): void;
}

/**
 * A lock's keys (one hash tag, one Cluster slot): the lock, its fence, `:queue` (sorted set: the
 * waiting tokens by arrival), `:tickets` (hash: token -> "manager ttl deadline-in-server-ms claim").
 */
export const lineKeys = (lock: string) => ["", ":fence", ":queue", ":tickets"].map((s) => lock + s);
/** The channel prefix of a namespace's managers: the release appends the waiter's manager id. */
export const inboxPrefix = (namespace: string) => `${namespace}:lock:inbox:`;

/**
 * handOver(ms, retention, prefix, stop), in front of the line's scripts: hands the lock to the
 * oldest ticket whose deadline has not passed, unless the token `stop` comes first: sets it for
 * the ticket's claim with a new fence, and tells its manager "token fence ttl server-ms lock-key
 * retention". Tickets whose waiter is gone are dropped on the way. The token handed to, or nil.
 */
const HAND_OVER_LUA = `local function handOver(ms, retention, prefix, stop)
  while true do
    local next = redis.call('ZRANGE', KEYS[3], 0, 0)[1]
    if not next or next == stop then return nil end
    redis.call('ZREM', KEYS[3], next)
    local ticket = redis.call('HGET', KEYS[4], next) or ''
    redis.call('HDEL', KEYS[4], next)
    local manager, ttl, deadline, claim = string.match(ticket, '^(%S+) (%d+) (%d+) ?(%d*)$')
    if manager and tonumber(deadline) > ms then
      redis.call('SET', KEYS[1], next, 'PX', claim ~= '' and claim or ttl)
      local fence = nextFence(math.max(retention, tonumber(ttl)))
      redis.call('PUBLISH', prefix .. manager,
        string.format('%s %d %d %d %s %d', next, fence, ttl, ms, KEYS[1], retention))
      return next
    end
  end
end
local function serverMs()
  local now = redis.call('TIME')
  return tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000), now
end
`;

/**
 * ARGV token, ttl, fence retention, manager id, ms the caller still waits, line retention, claim
 * ms (default: the ttl), channel prefix (optional). {1, fence} when it took the free lock or
 * confirmed (for its ttl) a claim handed to it; {0, pttl, server ms} when taken: the token is in
 * line (its place kept). A free lock (its holder died) goes to the oldest live ticket ahead of the
 * caller first, as a release would hand it.
 */
export const acquireScript = new LuaScript(
  `${FENCE_LUA}${HAND_OVER_LUA}
local retention = math.max(tonumber(ARGV[3]), tonumber(ARGV[2]))
if ARGV[8] and redis.call('EXISTS', KEYS[1]) == 0 then
  handOver(serverMs(), tonumber(ARGV[3]), ARGV[8], ARGV[1])
end
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  redis.call('ZREM', KEYS[3], ARGV[1])
  redis.call('HDEL', KEYS[4], ARGV[1])
  return {1, nextFence(retention)}
end
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  local fence = tonumber(redis.call('GET', KEYS[2]) or '0') -- unmoved since the hand-off
  if fence == 0 then fence = nextFence(retention) else redis.call('PEXPIRE', KEYS[2], retention) end
  return {1, fence}
end
local ms, now = serverMs() -- arrival in µs, written exactly (a Lua number prints 14 digits)
redis.call('ZADD', KEYS[3], 'NX', now[1] .. string.format('%06d', now[2]), ARGV[1])
local ticket = string.format('%s %d %d %d', ARGV[4], ARGV[2], ms + ARGV[5], ARGV[7] or ARGV[2])
redis.call('HSET', KEYS[4], ARGV[1], ticket)
redis.call('PEXPIRE', KEYS[3], ARGV[6])
redis.call('PEXPIRE', KEYS[4], ARGV[6])
return {0, redis.call('PTTL', KEYS[1]), ms}`,
);

/**
 * ARGV token, channel prefix, fence retention, and a token leaving the line (optional). 1 when
 * released: handed on (handOver) or deleted. 0 when the lock is not ours.
 */
export const releaseScript = new LuaScript(
  `${FENCE_LUA}${HAND_OVER_LUA}
if ARGV[4] then
  redis.call('ZREM', KEYS[3], ARGV[4])
  redis.call('HDEL', KEYS[4], ARGV[4])
end
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if not handOver(serverMs(), tonumber(ARGV[3]), ARGV[2]) then redis.call('DEL', KEYS[1]) end
return 1`,
);

/** One caller in line. Its sleep ends on a hand-off or its timer; cancel() ends any await at once. */
class Waiter {
  handed = false; // a release handed this token a claim not confirmed yet
  #cancelled: { reason: unknown } | undefined;
  #interrupt: ((reason: unknown) => void) | undefined;
  #wake: (() => void) | undefined;
  readonly #onAbort = () => this.cancel(this.signal!.reason);

  constructor(
    readonly token: string, // carried by this waiter's asks and its ticket for its whole wait
    private readonly signal: AbortSignal | undefined,
  ) {
    signal?.addEventListener("abort", this.#onAbort, { once: true });
    if (signal?.aborted) this.cancel(signal.reason);
  }

  /** `promise`'s outcome, unless the wait is cancelled first: then the cancel reason, at once. */
  race<T>(promise: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      promise.then(resolve, reject); // settles the race, or nothing once it is lost: never unhandled
      if (this.#cancelled) return reject(this.#cancelled.reason);
      this.#interrupt = reject;
    });
  }

  /** Sleeps up to `ms` on a counted timer of the host, or until the lock is handed over. */
  sleep(ms: number, host: RedisLockManager): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const woken = this.handed
      ? Promise.resolve()
      : new Promise<void>((wake) => (timer = host.setTimer((this.#wake = wake), ms)));
    return this.race(woken).finally(() => {
      host.clearTimer(timer);
      this.handed = false;
    });
  }

  /** A claim on the lock is ours: wake to confirm it; false when this waiter is past taking it. */
  handOver(): boolean {
    if (this.#cancelled) return false;
    this.handed = true;
    this.#wake?.();
    return true;
  }

  cancel(reason: unknown): void {
    if (this.#cancelled) return;
    this.#cancelled = { reason };
    this.#interrupt?.(reason);
  }

  dispose(): void {
    this.signal?.removeEventListener("abort", this.#onAbort);
  }
}

/** @example createLockManager({ ...options, layers: { waiting: fairWaiting({ subscriber }) } }) */
export const fairWaiting =
  (options: { subscriber?: LockSubscriberClient } = {}): T.Layer<T.WaitingLayer> =>
  (host) =>
    new FairWaiting(host, options.subscriber);

class FairWaiting implements T.WaitingLayer {
  /** Names this manager in its tickets, and its channel. */
  readonly #id = randomBytes(12).toString("base64url");
  readonly #prefix: string;
  readonly #channel: string;
  readonly #waiters = new Map<string, Waiter>(); // by token
  #subscriber: LockSubscriberClient | undefined;
  #subscribed: Promise<boolean> | undefined;
  #closed = false;

  constructor(
    private readonly host: RedisLockManager,
    private readonly given: LockSubscriberClient | undefined,
  ) {
    this.#prefix = inboxPrefix(host.config.namespace);
    this.#channel = this.#prefix + this.#id;
  }

  get waiters(): number {
    return this.#waiters.size;
  }

  get subscriptions(): number {
    return this.#subscriber ? 1 : 0;
  }

  /** The owner-checked release of `lock`, handing it on; `leaving` also takes that token out of line. */
  release(lock: string, token: string, retentionMs: number, leaving?: string) {
    const args = [token, this.#prefix, retentionMs, ...(leaving ? [leaving] : [])];
    return releaseScript.run(this.host.redis, lineKeys(lock), args);
  }

  /**
   * Waits in line: subscribed first (so no hand-off goes unheard), then asks, and again when its
   * re-check timer fires or a hand-off wakes it (the ask confirms the claim). A wait that ends
   * without the lock sends, after all its asks, a release that takes its ticket out of line and
   * passes on a lock handed or given to it meanwhile.
   */
  async wait(request: T.LockRequest, deadline: number): Promise<T.Lease | undefined> {
    const waiter = new Waiter(newToken(), request.signal);
    this.#waiters.set(waiter.token, waiter);
    const nextDelay = backoff();
    let lease: T.Lease | undefined;
    try {
      await waiter.race(this.#listen());
      for (let recheckAt = Infinity; ;) {
        const sentAt = this.host.clock(); // a confirmed claim runs its full TTL from the ask on
        const [took, fenceOrPttl] = await waiter.race(this.#ask(request, waiter, deadline));
        if (took === 1)
          return (lease = await this.host.lease(request, waiter.token, fenceOrPttl, sentAt, false));
        if (fenceOrPttl >= 0) recheckAt = this.host.clock() + fenceOrPttl + 1; // the holder's expiry
        const now = this.host.clock();
        if (now >= deadline && !waiter.handed) return undefined; // a claim handed is confirmed
        await waiter.sleep(Math.min(nextDelay(), recheckAt - now, deadline - now), this.host);
      }
    } finally {
      waiter.dispose();
      this.#waiters.delete(waiter.token);
      const { keys, fenceRetentionMs: retention } = request;
      if (!lease) this.release(keys.lock, waiter.token, retention, waiter.token).catch(() => {});
    }
  }

  close(reason: unknown): void {
    this.#closed = true;
    for (const waiter of this.#waiters.values()) waiter.cancel(reason);
    const subscriber = this.#subscriber;
    this.#subscriber = this.#subscribed = undefined;
    subscriber?.off("message", this.#onMessage);
    if (subscriber && subscriber === this.given)
      subscriber.unsubscribe(this.#channel).catch(() => {});
    else subscriber?.disconnect();
  }

  /** One acquire script round trip for `waiter`, keeping its ticket until `deadline`. */
  #ask(request: T.LockRequest, waiter: Waiter, deadline: number) {
    const { keys, kind, ttlMs, fenceRetentionMs } = request;
    const left = Math.max(1, Math.ceil(deadline - this.host.clock()));
    const claim = Math.min(ttlMs, this.host.config.commandTimeoutMs);
    const args = [
      waiter.token,
      ttlMs,
      fenceRetentionMs,
      this.#id,
      left,
      MAX_WAIT_MS + ttlMs,
      claim,
      this.#prefix,
    ];
    const send = () => acquireScript.run(this.host.redis, lineKeys(keys.lock), args);
    return this.host.run("acquire", kind, send) as Promise<[number, number, number?]>;
  }

  /**
   * Subscribes this manager's channel once, opening the connection on first use. True once
   * subscribed; false when that failed or timed out: waits then rely on their re-checks, and the
   * next wait tries again.
   */
  #listen(): Promise<boolean> {
    if (this.#closed) return Promise.resolve(false);
    if (this.#subscribed) return this.#subscribed;
    const subscriber = (this.#subscriber ??= this.#connect());
    const send = () => subscriber.subscribe(this.#channel);
    const timeoutMs = this.host.config.commandTimeoutMs;
    const subscribed = runCommand("subscribe", "", send, timeoutMs).then(
      () => true,
      () => {
        if (this.#subscribed === subscribed) this.#subscribed = undefined; // the next wait tries again
        return false;
      },
    );
    return (this.#subscribed = subscribed);
  }

  #connect(): LockSubscriberClient {
    const { redis, logger } = this.host;
    if (!this.given && !redis.duplicate)
      throw new Error("fair waiting needs a subscriber or a client with duplicate()");
    const options = { enableOfflineQueue: true, connectionName: "orderbot-lock-subscriber" };
    const subscriber = this.given ?? <LockSubscriberClient>redis.duplicate!(options);
    // While a connection of ours is down, waits rely on their re-checks.
    if (!this.given)
      subscriber.on("error", (error) =>
        logger.debug({ err: error.message }, "lock subscriber error"),
      );
    subscriber.on("message", this.#onMessage);
    return subscriber;
  }

  /** A hand-off: wake its waiter, or pass the lock on (with the kind's fence retention, which
   * the message carries) when nobody here takes it any more. */
  readonly #onMessage = (channel: string, message: string) => {
    if (channel !== this.#channel) return;
    const [token, , , , lockKey, retention] = message.split(" ");
    if (!token || !lockKey) return;
    const taken = this.#waiters.get(token)?.handOver();
    if (!taken && !this.host.holds(token))
      this.release(lockKey, token, Number(retention) || FENCE_RETENTION_MS).catch(() => {});
  };
}
