// One acquire round trip and what its reply means: the try script for a caller's first attempt,
// the acquire script (which also keeps this manager in the key's line) for a waiter's.
import type { CommandRunner } from "./commands.ts";
import { MAX_WAIT_MS } from "./config.ts";
import { LockUnavailableError } from "./errors.ts";
import type { LockKeys } from "./keys.ts";
import type { LockLease } from "./lease.ts";
import type { StrictReplication } from "./replication.ts";
import type { LockRequest } from "./requests.ts";
import { acquireScript, tryScript } from "./scripts.ts";
import { newToken } from "./tokens.ts";
import type { Waiter } from "./waiter.ts";
import type { Attempt } from "./waiting.ts";

/** acquire.lua and try.lua: `{1, fence}` or `{1, fence, pttl}` when acquired, `{0, pttl}` or `{0, pttl, server ms}` when taken. */
type AcquireReply = [number, number, number?];

export class Attempts {
  constructor(
    private readonly deps: {
      runner: CommandRunner;
      /** Names the manager in the lines it waits in. */
      managerId: string;
      /** Strict mode, when configured. */
      replication: StrictReplication | undefined;
      newLease(
        request: LockRequest,
        token: string,
        fence: number,
        startedAt: number,
        ttlMs: number,
      ): LockLease;
      giveBack(keys: LockKeys, token: string, leaveLine: boolean, retentionMs: number): void;
    },
  ) {}

  /**
   * One round trip: without a waiter, the try script (take the lock if it is free); for a waiter,
   * the acquire script, which also keeps this manager in the key's line until the waiter's
   * `deadline`. (A promise chain, not an async function: this runs on every acquire.)
   */
  run(request: LockRequest, waiter?: Waiter, deadline = 0): Promise<Attempt> {
    const { keys, kind, metrics, ttlMs } = request;
    const token = waiter ? waiter.token : newToken();
    const sentAt = Date.now();
    waiter?.attemptSent(sentAt);
    const retentionMs = request.fenceRetentionMs;
    const sent = waiter
      ? this.deps.runner.script("acquire", metrics, kind, acquireScript, [
          keys.lock,
          keys.fence,
          keys.queue,
          keys.tickets,
          token,
          ttlMs,
          retentionMs,
          this.deps.managerId,
          Math.max(1, Math.ceil(deadline - performance.now())), // ms it will still wait
          MAX_WAIT_MS + ttlMs,
          // Taking a free lock, the script leaves the line only if this manager may be in it:
          // the first attempt of a lone waiter skips that (a stale place left by a failed
          // give-back is skipped by its deadline, or passed on by whoever it is handed to).
          waiter.inLine ? 1 : 0,
        ])
      : this.deps.runner.script("acquire", metrics, kind, tryScript, [
          keys.lock,
          keys.fence,
          token,
          ttlMs,
          retentionMs,
        ]);
    return sent.then(
      (reply) => this.#attempted(request, waiter, token, sentAt, reply as AcquireReply),
      (error: unknown) => {
        // Timed out: Redis may have run the acquire, or still will. A give-back sent now, on the
        // same connection, runs after it and releases whatever it took for a caller who is gone.
        if (error instanceof LockUnavailableError && error.reason === "timeout")
          this.deps.giveBack(keys, token, false, retentionMs);
        throw error;
      },
    );
  }

  /** What an attempt's reply means: the lease (in strict mode once replicas have it), or how long the lock stays taken. */
  #attempted(
    request: LockRequest,
    waiter: Waiter | undefined,
    token: string,
    sentAt: number,
    reply: AcquireReply,
  ): Attempt | Promise<Attempt> {
    if (reply[0] !== 1) {
      if (waiter && reply[2] !== undefined) waiter.heardBusy(sentAt, reply[2]);
      return { pttl: reply[1] };
    }
    // A lock handed to this token earlier says how long it has left; one we just set, its full TTL.
    const handed = reply[2] !== undefined;
    const ttlMs = request.ttlMs;
    const startedAt = handed ? sentAt + reply[2]! - ttlMs : sentAt;
    const lease = this.deps.newLease(request, token, reply[1], startedAt, ttlMs);
    const strict = this.deps.replication;
    if (!strict) return { lease };
    return (handed ? strict.confirmHandover(lease) : strict.replicate(lease)).then(() => ({
      lease,
    }));
  }
}
