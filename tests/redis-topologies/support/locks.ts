import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import {
  LockUnavailableError,
  circuitBreaker,
  createLockManager,
  fairWaiting,
  outagePolicies,
  type AcquireResult,
  type LockManager,
  type LockManagerOptions,
  type LockResource,
} from "@orderbot/lock";
import type { RedisClient } from "@orderbot/platform";

/** The order lock as the shop configures it, with a long lease so that only a failover can end it. */
export const KINDS = {
  order: { ttlMs: 30_000, waitMs: 0, outage: "refuse" },
} satisfies LockManagerOptions["kinds"];

/** One namespace for every manager of a test file: they are instances of one shop. */
const NAMESPACE = `test:topology:${randomBytes(4).toString("hex")}`;

/**
 * A lock manager on any ioredis client. The lock module types its client after `Redis` (whose
 * `duplicate(options)` differs from `Cluster#duplicate(nodes, options)`), so a Cluster client is
 * passed through a cast, with its own `subscriber`: the scripts and WAIT are what it uses.
 */
export function lockManager(
  redis: RedisClient,
  options: Partial<LockManagerOptions> = {},
): LockManager {
  return createLockManager({
    redis: redis as unknown as LockManagerOptions["redis"],
    namespace: NAMESPACE,
    kinds: KINDS,
    hashKey: "topology-test-hash-key",
    commandTimeoutMs: 2000,
    ...options,
    layers: {
      waiting: fairWaiting(),
      breaker: circuitBreaker(),
      outage: outagePolicies(),
      ...options.layers,
    },
  });
}

/**
 * acquire(), tried again while the client is still reconnecting after a failover (a connection
 * error, a timeout, the breaker open), as an app would on its next update. Any other outcome,
 * including a strict-mode refusal, is returned or thrown as it is.
 */
export async function acquireWhenReachable(
  locks: LockManager,
  resource: LockResource,
  timeoutMs = 20_000,
): Promise<AcquireResult> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await locks.acquire(resource);
    } catch (error) {
      const transient = error instanceof LockUnavailableError && error.reason !== "replication";
      if (!transient || Date.now() > deadline) throw error;
      await sleep(200);
    }
  }
}
