import type { CoreDeps } from "../../deps.ts";
import { STARS } from "../pending-refunds.ts";
import { insertFinding, type FindingKind } from "./findings.ts";
import { INVOICE_PARTNER } from "./ledger.ts";
import { recordMissingCharges, type ChargeActions } from "./missing-charges.ts";

export interface CompareOptions {
  botId: bigint;
  /**
   * Differences younger than this are not findings yet: a successful_payment or refunded_payment
   * on its way to the bot, a refund call on its way to Telegram (ms).
   */
  graceMs: number;
  leaseSignal?: AbortSignal;
  /** Charges without a row handled per run at most. Default 100. */
  batchSize?: number;
}

/** What comparing finds; reading the list finds the rest (ledger-order.ts). */
export type CompareResult = Record<Exclude<FindingKind, "ledger-out-of-order">, number>;

/**
 * Compares what has been read of Telegram's list with the payments table and records every
 * difference as a finding. Each finding is an INSERT … ON CONFLICT DO NOTHING on the unique
 * (kind, charge) key, so comparing again, or on two workers at once, records nothing twice.
 *
 * - A charge without a row is recorded against the order its payload names, through the path of
 *   a successful_payment; with no such order, order-less and refunded (missing-charges.ts).
 * - A refund Telegram made that the shop does not have is recorded as Telegram's refund would be
 *   (`recordTelegramRefund`, the refunded_payment path).
 * - "Telegram does not have it" needs Telegram's whole list up to the payment's time: only
 *   payments older than the last read that reached the end of the list (minus the grace) count.
 */
export async function compareLedger(
  deps: CoreDeps,
  actions: ChargeActions,
  options: CompareOptions,
): Promise<CompareResult> {
  const bot = options.botId;
  const settled = new Date(deps.clock.now().getTime() - options.graceMs);
  const chargeMissing = await recordMissingCharges(deps, actions, {
    botId: bot,
    settled,
    ...(options.batchSize !== undefined ? { batchSize: options.batchSize } : {}),
    ...(options.leaseSignal ? { leaseSignal: options.leaseSignal } : {}),
  });
  const refundOnlyInTelegram = await recordTelegramOnlyRefunds(deps, actions, options, settled);
  const amountMismatch = await recordAmountMismatches(deps.db, bot);
  const shopOnly = await recordShopOnly(deps.db, bot, options.graceMs);
  const result: CompareResult = {
    "charge-missing": chargeMissing,
    "payment-unknown-to-telegram": shopOnly.payments,
    "refund-only-in-telegram": refundOnlyInTelegram,
    "refund-only-in-shop": shopOnly.refunds,
    "amount-mismatch": amountMismatch,
  };
  for (const [kind, count] of Object.entries(result))
    if (count > 0)
      deps.logger.warn({ kind, count }, "Stars ledger differs from the payments table");
  return result;
}

/** Refunds Telegram made of payments the shop still has as captured: recorded as Telegram's. */
async function recordTelegramOnlyRefunds(
  deps: CoreDeps,
  actions: ChargeActions,
  options: CompareOptions,
  settled: Date,
): Promise<number> {
  const refundedThere = await deps.db.$queryRaw<{ id: string; user_id: bigint; amount: number }[]>`
    SELECT r.transaction_id AS id, p.user_id, r.amount
      FROM star_transactions r JOIN payments p ON p.telegram_charge_id = r.transaction_id
     WHERE r.bot_id = ${options.botId} AND r.direction = 'out' AND r.partner = ${INVOICE_PARTNER}
       AND p.status = 'CAPTURED' AND r.occurred_at < ${settled}::timestamp`;
  let findings = 0;
  for (const refund of refundedThere) {
    if (options.leaseSignal?.aborted) break;
    const found = await insertFinding(deps.db, "refund-only-in-telegram", refund, {});
    await actions.recordTelegramRefund({
      telegramChargeId: refund.id,
      userId: refund.user_id,
      amount: refund.amount,
      currency: STARS,
    });
    findings += found;
  }
  return findings;
}

function recordAmountMismatches(db: CoreDeps["db"], bot: bigint): Promise<number> {
  return db.$executeRaw`
    INSERT INTO star_ledger_findings (kind, telegram_charge_id, user_id, telegram_amount, shop_amount, details)
    SELECT 'amount-mismatch', t.transaction_id, p.user_id, t.amount, p.amount_minor,
           jsonb_build_object('shopCurrency', p.currency)
      FROM star_transactions t JOIN payments p ON p.telegram_charge_id = t.transaction_id
     WHERE t.bot_id = ${bot} AND t.direction = 'in'
       AND (p.amount_minor <> t.amount OR p.currency <> ${STARS})
    ON CONFLICT DO NOTHING`;
}

/** Payments and refunds Telegram does not have, once its list has been read to the end. */
async function recordShopOnly(
  db: CoreDeps["db"],
  bot: bigint,
  graceMs: number,
): Promise<{ payments: number; refunds: number }> {
  const [position] = await db.$queryRaw<{ read_to_end_at: Date | null }[]>`
    SELECT read_to_end_at FROM star_ledger_positions WHERE bot_id = ${bot}`;
  if (!position?.read_to_end_at) return { payments: 0, refunds: 0 };
  // Everything Telegram had before this instant has been read.
  const covered = new Date(position.read_to_end_at.getTime() - graceMs);
  const payments = await db.$executeRaw`
    INSERT INTO star_ledger_findings (kind, telegram_charge_id, user_id, shop_amount, details)
    SELECT 'payment-unknown-to-telegram', p.telegram_charge_id, p.user_id, p.amount_minor,
           jsonb_build_object('status', p.status::text, 'orderId', o.public_id)
      FROM payments p LEFT JOIN orders o ON o.id = p.order_id
     WHERE p.currency = ${STARS} AND p.status IN ('CAPTURED', 'REFUNDED')
       AND p.created_at < ${covered}::timestamp
       AND NOT EXISTS (SELECT 1 FROM star_transactions t
                        WHERE t.bot_id = ${bot} AND t.direction = 'in'
                          AND t.transaction_id = p.telegram_charge_id)
    ON CONFLICT DO NOTHING`;
  const refunds = await db.$executeRaw`
    INSERT INTO star_ledger_findings (kind, telegram_charge_id, user_id, telegram_amount, shop_amount, details)
    SELECT 'refund-only-in-shop', p.telegram_charge_id, p.user_id, t.amount, p.amount_minor,
           jsonb_build_object('refundedBy', p.refunded_by)
      FROM payments p
      JOIN star_transactions t ON t.bot_id = ${bot} AND t.direction = 'in'
                              AND t.transaction_id = p.telegram_charge_id
     WHERE p.currency = ${STARS} AND p.status = 'REFUNDED' AND p.refunded_at < ${covered}::timestamp
       AND NOT EXISTS (SELECT 1 FROM star_transactions r
                        WHERE r.bot_id = ${bot} AND r.direction = 'out'
                          AND r.transaction_id = p.telegram_charge_id)
    ON CONFLICT DO NOTHING`;
  return { payments, refunds };
}
