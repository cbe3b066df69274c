import type { CoreDeps } from "../deps.ts";
import { listOwedRefunds, type OwedRefund } from "./owed-refunds.ts";
import { openFindingCount, openFindings, type LedgerFinding } from "./reconciliation/findings.ts";

/**
 * One part of what operators see in /refunds: every money exception that needs a person. Each
 * kind is a section of its own, so another source of exceptions (a reconciliation with Telegram's
 * ledger, say) adds a kind here and a renderer in the bot, and the command shows it too.
 */
export type MoneySection = {
  kind: "refunds";
  /** The first `limit`, the ones needing a person first. */
  refunds: OwedRefund[];
  /** How many are owed in all. */
  total: number;
};

/** Differences with Telegram's Stars ledger that nobody has resolved (the reconcile-stars job). */
export interface LedgerFindingsSection {
  /** The first `limit`, oldest first. */
  findings: LedgerFinding[];
  total: number;
}

export interface MoneyExceptions {
  sections: MoneySection[];
  /** Shown after the sections, when there is any. */
  ledgerFindings: LedgerFindingsSection;
}

export function createMoneyExceptions(deps: Pick<CoreDeps, "db">) {
  return async function moneyExceptions(options: { limit: number }): Promise<MoneyExceptions> {
    const [owed, findings, findingTotal] = await Promise.all([
      listOwedRefunds(deps.db, options.limit),
      openFindings(deps.db, options.limit),
      openFindingCount(deps.db),
    ]);
    return {
      sections: [{ kind: "refunds", ...owed }],
      ledgerFindings: { findings, total: findingTotal },
    };
  };
}
