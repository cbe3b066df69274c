import type { LockKindConfig } from "@orderbot/lock";

/**
 * docs/architecture.md, "Locks", as data: every lock kind the shop uses, its lease, its default
 * wait and what happens when Redis is down. The bot and the worker pass this to `createLockManager({ kinds: LOCK_KINDS })`.
 *
 * Whatever a lock does, correctness comes from PostgreSQL: the locks here only keep instances from
 * doing the same work at once (and users from double-submitting).
 */
export const LOCK_KINDS = {
  /** Two replicas never run the same Telegram update at once. Down: ProcessedUpdate + idempotent handlers. */
  update: { ttlMs: 15_000, waitMs: 0, outage: "proceed-db-only" },
  /** One checkout per user; a double tap answers "processing". Down: refuse ("try again shortly"). */
  checkout: { ttlMs: 5_000, waitMs: 0, outage: "refuse", personal: true },
  /**
   * Pay, cancel and pre-checkout of one order never interleave. Short wait: pre-checkout must
   * answer within 10 s. Down: payment confirmation and pre-checkout proceed on database guarantees;
   * cancel and operator refunds refuse (`lockedTransaction(..., { lockless: "refuse" })`).
   */
  order: { ttlMs: 5_000, waitMs: 2_000, outage: "proceed-db-only" },
  /** An operator's stock import applies once. Down: refuse. */
  "stock-batch": { ttlMs: 30_000, waitMs: 0, outage: "refuse" },
  /** One instance refreshes a group's admin list; the others use the cached list. Down: cached list. */
  "group-admins": { ttlMs: 10_000, waitMs: 0, outage: "skip", personal: true },
  /** Leader election per worker job; retried next tick. Down: the job pauses. */
  job: { ttlMs: 30_000, waitMs: 0, outage: "skip" },
  /** The daily report is built and sent once. Down: pause. */
  report: { ttlMs: 60_000, waitMs: 0, outage: "skip" },
} as const satisfies Record<string, LockKindConfig>;

export type LockKind = keyof typeof LOCK_KINDS;
