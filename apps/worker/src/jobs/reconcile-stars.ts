import type { FetchLedgerPage, StarReconciliation } from "@orderbot/core/payments";
import type { OperatorChats } from "../operators/chats.ts";
import type { Job } from "./job.ts";

/**
 * reconcile-stars: compares the payments table with Telegram's own record of the bot's Stars
 * (getStarTransactions). Every shop takes Stars, for its digital goods; a payment provider keeps
 * the ledger of physical goods' payments outside Telegram, so those are not in this list.
 *
 * Under the `job` leader lock: one worker reads Telegram's list at a time. It reads from the stored
 * position on (history once), records each difference once as a finding (unique per kind and
 * charge), refunds a charge that has no row through the normal refund path (`refund:<charge>`),
 * and alerts every operator chat once per finding. The Bot API calls carry the lease's signal: a
 * worker that lost its lease stops waiting for Telegram, and its transactions roll back.
 */
export function reconcileStarsJob(deps: {
  ledger: StarReconciliation;
  botId: bigint;
  /** getStarTransactions(offset, limit), aborted with the given signal. */
  getStarTransactions: (
    offset: number,
    limit: number,
    signal: AbortSignal,
  ) => ReturnType<FetchLedgerPage>;
  operatorChats: OperatorChats;
  intervalMs: number;
  graceMs: number;
}): Job {
  return {
    name: "reconcile-stars",
    intervalMs: deps.intervalMs,
    async run({ signal, leaseSignal }) {
      const result = await deps.ledger.reconcile({
        botId: deps.botId,
        fetchPage: (offset, limit) => deps.getStarTransactions(offset, limit, leaseSignal),
        operatorChats: await deps.operatorChats(),
        graceMs: deps.graceMs,
        signal,
        leaseSignal,
      });
      const found = Object.values(result.found).reduce((sum, n) => sum + n, 0);
      return { read: result.read, offset: result.offset, found, alerted: result.alerted };
    },
  };
}
