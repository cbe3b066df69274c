// @orderbot/lock: Redis resource locks with fencing, watchdog renewal, release wake-ups, a circuit
// breaker and per-kind outage policies. See docs/locking.md for the rules each part implements.
export { createLockManager } from "./manager.ts";
export {
  LockInputError,
  LockUnavailableError,
  LeaseLostError,
  type UnavailableReason,
  type LeaseLossReason,
} from "./errors.ts";
export { LOCK_METRICS } from "./types.ts";
export { MAX_WAIT_MS } from "./config.ts";
export type {
  AcquireOptions,
  AcquireResult,
  Lease,
  LockContext,
  LockKindConfig,
  LockLogger,
  LockManager,
  LockManagerOptions,
  LockOutcome,
  LockRedisClient,
  LockSubscriberClient,
  LockResource,
  LockStats,
  OutagePolicy,
  ReleaseOutcome,
  WithLockOptions,
} from "./types.ts";
