// Every lock kind has a hold cap, and a holder that hangs lets its lock go at that cap instead of
// renewing it for as long as its process lives. The kinds are run time-scaled (TTL and cap divided
// by the same factor, renewal counts unchanged) so that a 10-minute cap takes a second here.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLockManager, type LockKindConfig, type LockManager } from "@orderbot/lock";
import { createRedis, waitForRedis, type Redis } from "@orderbot/platform";
import { useTestRedis } from "@orderbot/testkit";
import { LOCK_KINDS } from "../../src/index.ts";

// 500 ms: a renewal every 166 ms, so that a busy machine's late timers do not lose the lease.
const SCALED_TTL_MS = 500;
const kinds = Object.entries(LOCK_KINDS) as [string, LockKindConfig][];

/** The kind with its TTL at SCALED_TTL_MS and its cap shrunk by the same factor. */
function scaled(config: LockKindConfig): LockKindConfig {
  const factor = SCALED_TTL_MS / config.ttlMs;
  return {
    ...config,
    ttlMs: SCALED_TTL_MS,
    ...(config.maxHoldMs !== undefined && { maxHoldMs: Math.round(config.maxHoldMs * factor) }),
  };
}

/** How long the lock may stay held by a hung holder, scaled. */
function capMs(config: LockKindConfig): number {
  const byHold = config.maxHoldMs ?? Infinity;
  const byRenewals =
    config.maxRenewals === undefined
      ? Infinity
      : config.ttlMs + config.maxRenewals * Math.floor(config.ttlMs / 3);
  return Math.min(byHold, byRenewals);
}

const testRedis = useTestRedis();
let redis: Redis;
let hung: LockManager;
let other: LockManager;

beforeAll(async () => {
  redis = createRedis({ url: testRedis.url, commandTimeoutMs: 1_000 });
  await waitForRedis(redis);
  const options = {
    redis,
    namespace: testRedis.namespace,
    kinds: Object.fromEntries(kinds.map(([kind, config]) => [kind, scaled(config)])),
    hashKey: "hold-caps-test-key-0123456789",
  };
  hung = createLockManager(options);
  other = createLockManager(options);
});

afterAll(async () => {
  await hung?.close();
  await other?.close();
  redis?.disconnect();
});

describe("LOCK_KINDS hold caps", () => {
  it.each(kinds)("%s has a finite cap longer than its TTL", (_kind, config) => {
    const cap = capMs(config);
    expect(Number.isFinite(cap)).toBe(true);
    expect(cap).toBeGreaterThan(config.ttlMs);
    expect(cap).toBeLessThanOrEqual(20 * config.ttlMs); // a cap far past the work is no cap
  });

  it.each(kinds)(
    "%s: a hung holder stops renewing at the cap and the lock is free soon after",
    async (kind, config) => {
      const cap = capMs(scaled(config));
      const resource = { kind, id: "hung-holder" };
      let release!: () => void;
      const stuck = new Promise<void>((resolve) => (release = resolve));
      let abortedAt = 0;
      let dueAt = Infinity; // when, by the lease's own clock, the abort was due
      let lockedAt = 0;
      // When the key expires, read from Redis as the holder is told: its renewals have stopped.
      let expiresAt: Promise<number> = Promise.resolve(Infinity);
      const started = Date.now();
      const holding = hung.withLock(resource, async ({ lease, signal }) => {
        lockedAt = lease!.acquiredAt;
        const onAbort = () => {
          [abortedAt, dueAt] = [Date.now(), lease!.abortsAt];
          expiresAt = redis.call("PEXPIRETIME", hung.keyFor(resource)) as Promise<number>;
        };
        signal.addEventListener("abort", onAbort, { once: true });
        await stuck; // hung: ignores its signal
      });

      // Held past its TTL (the watchdog renews), up to the cap. A timer that fires late on a busy
      // machine may look after the cap, when the lock is rightly free.
      await new Promise((resolve) => setTimeout(resolve, SCALED_TTL_MS * 2));
      const lookedAt = Date.now() - lockedAt;
      const look = await other.acquire(resource, { waitMs: 0 });
      if (look.ok) await look.lease.release();
      expect(look.ok && lookedAt < cap, `free ${lookedAt} ms after it was taken`).toBe(false);

      // Then free, while the holder still hangs: someone else gets it within cap + one TTL.
      const taken = await other.acquire(resource, {
        waitMs: Math.min(cap, 10_000) + SCALED_TTL_MS * 3,
      });
      const freedAfter = Date.now() - started;
      expect(taken.ok).toBe(true);
      // The lock frees itself within cap + TTL: judged by the key's own expiry (Redis's clock; -2
      // when it was gone already), not by when the waiter, backing off, noticed.
      const expiry = await expiresAt;
      expect(
        expiry === -2 || expiry - started <= cap + SCALED_TTL_MS * 3,
        `expiry ${expiry - started} ms`,
      ).toBe(true);
      expect(abortedAt - started).toBeGreaterThan(0); // the holder was told ...
      expect(dueAt - lockedAt).toBeLessThanOrEqual(cap); // ... by the cap (timers may run late)
      expect(abortedAt - started).toBeLessThanOrEqual(freedAfter); // ... before another held it
      if (taken.ok) await taken.lease.release();
      release();
      await holding;
    },
    20_000,
  );
});
