import type { LockKindConfig } from "@orderbot/lock";

/**
 * docs/architecture.md, "Locks", as data: every lock kind the shop uses, its lease, its default
 * wait, what happens when Redis is down, and its hold cap. The bot and the worker pass this to
 * `createLockManager({ kinds: LOCK_KINDS })`.
 *
 * The hold cap (`maxHoldMs`) is where withLock's watchdog stops renewing: a holder that hangs (a
 * stuck call, a lost promise) lets the lock go then, instead of keeping it for as long as its
 * process lives. Each is chosen from the work the kind covers, with the reason beside it.
 *
 * Whatever a lock does, correctness comes from PostgreSQL: the locks here only keep instances from
 * doing the same work at once (and users from double-submitting).
 */
export const LOCK_KINDS = {
  /** Two replicas never run the same Telegram update at once. Down: ProcessedUpdate + idempotent handlers. */
  update: {
    ttlMs: 15_000,
    waitMs: 0,
    outage: "proceed-db-only",
    // Telegram gives up on a webhook request after about 60 s and re-sends: past that, holding only blocks the re-delivery.
    maxHoldMs: 60_000,
    // Nothing reads this kind's fence (processed_updates' primary key does the dedupe), and one
    // counter per update id kept for an hour filled Redis at ~450 updates/s: keep it for the lease.
    fenceRetentionMs: 1,
  },
  /** One checkout per user; a double tap answers "processing". Down: refuse ("try again shortly"). */
  checkout: {
    ttlMs: 5_000,
    waitMs: 0,
    outage: "refuse",
    personal: true,
    // One reserve transaction (bounded at 5 s by transactionTimeoutMs) and its one retry, plus the pool wait.
    maxHoldMs: 15_000,
  },
  /**
   * Pay, cancel and pre-checkout of one order never interleave. Short wait: pre-checkout must
   * answer within 10 s. Down: payment confirmation and pre-checkout proceed on database guarantees;
   * cancel and operator refunds refuse (`lockedTransaction(..., { lockless: "refuse" })`).
   */
  order: {
    ttlMs: 5_000,
    waitMs: 2_000,
    outage: "proceed-db-only",
    // Pre-checkout is answered within 10 s and a payment or cancel is one 5 s transaction: 15 s covers either with a retry.
    maxHoldMs: 15_000,
  },
  /** An operator's stock import applies once. Down: refuse. */
  "stock-batch": {
    ttlMs: 30_000,
    waitMs: 0,
    outage: "refuse",
    // One import is one transaction (5 s by transactionTimeoutMs) and its retry; four TTLs is room for a slow database, not for a hung holder.
    maxHoldMs: 120_000,
  },
  /** One instance refreshes a group's admin list; the others use the cached list. Down: cached list. */
  "group-admins": {
    ttlMs: 10_000,
    waitMs: 0,
    outage: "skip",
    personal: true,
    // One getChatAdministrators call (grammY's default timeout is 500 s, so the cap, not the client, bounds it) and one write.
    maxHoldMs: 30_000,
  },
  /** Leader election per worker job; retried next tick. Down: the job pauses. */
  job: {
    ttlMs: 30_000,
    waitMs: 0,
    outage: "skip",
    // A pass is bounded by its batch limits (seconds); a keepLeadership leader (the relay) steps down before this and the next tick elects again.
    maxHoldMs: 600_000,
  },
  /** The daily report is built and sent once. Down: pause. */
  report: {
    ttlMs: 60_000,
    waitMs: 0,
    outage: "skip",
    // A few bounded report queries and one outbox insert; three TTLs is room for a slow database, not for a hung one.
    maxHoldMs: 180_000,
  },
} as const satisfies Record<string, LockKindConfig>;

export type LockKind = keyof typeof LOCK_KINDS;
