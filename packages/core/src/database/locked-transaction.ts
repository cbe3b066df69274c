// Lock, then one short transaction, then release: the shape of every locked write of the shop.
import { runTransaction, TransactionAbortedError, type Tx } from "@orderbot/db";
import type { CoreDeps } from "../deps.ts";
import type { LockKind } from "../lock-kinds.ts";
import { BUSY, UNAVAILABLE, type Busy, type Unavailable } from "../results.ts";

export interface LockedTransactionOptions {
  /**
   * What to do when Redis is down and the kind's policy would run the work without a lock
   * (`proceed-db-only`): `run` it on the database's guarantees, or `refuse` (UNAVAILABLE). Cancel
   * and refunds share the `order` kind with payments but refuse: they can wait, a payment cannot.
   */
  lockless?: "run" | "refuse";
}

/**
 * Takes `resource`'s lock, runs `work` in one short transaction under the lease's signal (a lease
 * lost mid-way rolls the transaction back), and releases. A lock held elsewhere is BUSY; Redis
 * down (by the kind's policy) or a lost lease is UNAVAILABLE, and nothing was written.
 *
 * @example
 * const result = await lockedTransaction(deps, { kind: "order", id: publicId }, (tx) => refund(tx, publicId), {
 *   lockless: "refuse",
 * });
 * if (result.status === "busy") return reply("Someone else is working on this order.");
 */
export async function lockedTransaction<T>(
  deps: Pick<CoreDeps, "db" | "locks" | "config" | "requestId">,
  resource: { kind: LockKind; id: string },
  work: (tx: Tx) => Promise<T>,
  options: LockedTransactionOptions = {},
): Promise<T | Busy | Unavailable> {
  const outcome = await deps.locks.withLock(
    resource,
    async ({ lease, signal }): Promise<T | Unavailable> => {
      if (lease === null && options.lockless === "refuse") return UNAVAILABLE;
      try {
        return await runTransaction(deps.db, work, {
          signal,
          timeoutMs: deps.config.transactionTimeoutMs,
          maxWaitMs: deps.config.transactionMaxWaitMs,
        });
      } catch (error) {
        if (error instanceof TransactionAbortedError) return UNAVAILABLE;
        throw error;
      }
    },
    { requestId: deps.requestId() },
  );
  if (outcome.status === "ok") return outcome.value;
  return outcome.status === "busy" ? BUSY : UNAVAILABLE;
}
