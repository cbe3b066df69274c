import { refusalOf, type Actor, type Forbidden } from "../../rights/may-do.ts";
import type { CoreDeps } from "../../deps.ts";
import { createConfirmPayment } from "../confirm-payment.ts";
import { createRecordTelegramRefund } from "../telegram-refund.ts";
import { alertNewFindings } from "./alerts.ts";
import { compareLedger, type CompareResult } from "./compare.ts";
import {
  openFindingCount,
  openFindings,
  resolveFinding,
  type LedgerFinding,
  type ResolveFindingResult,
} from "./findings.ts";
import { readLedger, type FetchLedgerPage, type ReadLedgerResult } from "./ledger.ts";

export interface ReconcileOptions {
  /** The bot whose ledger this is (the digits of its token before ":"). */
  botId: bigint;
  /** Telegram's getStarTransactions. */
  fetchPage: FetchLedgerPage;
  /** Where findings are reported: every operator chat. */
  operatorChats: readonly bigint[];
  /** Differences younger than this are not findings yet (ms). */
  graceMs: number;
  signal?: AbortSignal;
  leaseSignal?: AbortSignal;
  maxPages?: number;
}

export interface ReconcileResult extends ReadLedgerResult {
  found: CompareResult;
  alerted: number;
}

export type StarReconciliation = ReturnType<typeof createStarReconciliation>;

/**
 * Reconciliation of the payments table with Telegram's own record of the bot's Stars. The
 * worker's reconcile-stars job runs `reconcile` under its leader lock; every step is also safe
 * without the lock (conditional position, unique findings, unique charge ids, outbox dedupe).
 */
export function createStarReconciliation(deps: CoreDeps) {
  const actions = {
    recordTelegramRefund: createRecordTelegramRefund(deps),
    confirmPayment: createConfirmPayment(deps),
  };
  return {
    /** One pass: read Telegram's new transactions, compare, record and alert new findings. */
    async reconcile(options: ReconcileOptions): Promise<ReconcileResult> {
      const read = await readLedger(deps.db, {
        botId: options.botId,
        fetchPage: options.fetchPage,
        now: () => deps.clock.now(),
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.leaseSignal ? { leaseSignal: options.leaseSignal } : {}),
        ...(options.maxPages !== undefined ? { maxPages: options.maxPages } : {}),
      });
      const found = await compareLedger(deps, actions, {
        botId: options.botId,
        graceMs: options.graceMs,
        ...(options.leaseSignal ? { leaseSignal: options.leaseSignal } : {}),
      });
      const alerted = await alertNewFindings(deps.db, options.operatorChats, {
        now: deps.clock.now(),
        fallbackChat: deps.config.fallbackOperatorChatId,
        ...(options.leaseSignal ? { leaseSignal: options.leaseSignal } : {}),
      });
      return { ...read, found, alerted };
    },
    /** Findings nobody has resolved yet, oldest first. */
    openFindings: (limit: number): Promise<LedgerFinding[]> => openFindings(deps.db, limit),
    openFindingCount: (): Promise<number> => openFindingCount(deps.db),
    /** An operator settles a finding; `actor` is who (recorded), with an optional note. */
    resolveFinding: async (
      id: number,
      actor: Actor,
      note?: string | null,
    ): Promise<ResolveFindingResult | Forbidden> =>
      refusalOf("finding-resolve", actor) ??
      resolveFinding(deps.db, {
        id,
        actor: typeof actor.id === "string" ? actor.id : `op:${deps.mask(actor.id)}`,
        note: note ?? null,
        now: deps.clock.now(),
      }),
  };
}
