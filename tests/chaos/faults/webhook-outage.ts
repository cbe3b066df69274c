// The webhook unreachable past the reconciliation grace while the worker runs: Telegram takes the
// payers' Stars, their successful_payment cannot reach any bot, and the worker's reconciliation
// finds the charges in Telegram's ledger first. Each must pay for the order its payload names (a
// refund only when that order cannot be honoured), and the update, delivered at last, changes
// nothing (docs/architecture.md, Updates that carry money).
import type { Database } from "@orderbot/db";
import type { InvariantResult } from "@orderbot/testkit";
import { paidWhen, until, type Fault, type FaultContext } from "../fault.ts";

/** The workers' RECONCILE_GRACE_MS in chaos runs: short, so that an outage outlasts it quickly. */
export const CHAOS_RECONCILE_GRACE_MS = 3_000;
/** The workers' RECONCILE_INTERVAL_MS in chaos runs (the smallest the worker takes). */
export const CHAOS_RECONCILE_INTERVAL_MS = 1_000;

const PAID = ["PAID", "PROCESSING", "SHIPPED", "DELIVERED"];
const noGate = () => Promise.resolve();

export function webhookPastReconcileGrace(at: number): Fault {
  return {
    label: "webhook unreachable past the reconciliation grace",
    happened: (c) => c.lateCharges > 0 && c.lateChargesReconciled > 0,
    async run(ctx) {
      await ctx.at(at);
      const kit = ctx.env.shop.kit;
      // Pre-checkout answers are held until the webhook is down, so the charges follow the outage;
      // two shoppers of the fault's own pay, whatever the crowd does.
      const held = kit.faults.hold("answerPreCheckoutQuery");
      const payers = [ctx.shopper("pay", noGate), ctx.shopper("pay", noGate)];
      const heldFor = Date.now();
      // Bounded by the payers' own pace: on a loaded machine they reach Pay late, never not at all.
      if (await until(() => held.waiting >= 1, 180_000))
        await until(() => held.waiting >= 3, 1_500);
      const holding = held.waiting;
      const down = Date.now();
      kit.faults.delivery({ webhookUnreachable: true });
      held.release();
      const late = () => kit.charges.filter((c) => c.paidAt >= down).map((c) => c.chargeId);
      await until(() => late().length >= Math.min(1, holding), 15_000);
      // Down until the worker's reconciliation has recorded every charge taken meanwhile (bounded).
      await until(
        async () => (await recordedCount(ctx.env.db, late())) === late().length,
        CHAOS_RECONCILE_GRACE_MS + 10 * CHAOS_RECONCILE_INTERVAL_MS,
      );
      const charges = late();
      const reconciled = await recordedCount(ctx.env.db, charges);
      kit.faults.delivery({});
      ctx.counts.lateCharges += charges.length;
      ctx.counts.lateChargesReconciled += reconciled;
      ctx.note(
        `${holding} pre-checkout answers held for ${((down - heldFor) / 1000).toFixed(1)} s; webhook unreachable for ${((Date.now() - down) / 1000).toFixed(1)} s: ${charges.length} charges taken meanwhile, ${reconciled} recorded by the reconciliation before their update`,
      );
      ctx.checkAfterSettle(() => lateChargesHonoured(ctx, charges));
      ctx.note(`the fault's own payers: ${(await Promise.all(payers)).map(paidWhen).join("; ")}`);
    },
  };
}

async function recordedCount(db: Database, chargeIds: string[]): Promise<number> {
  if (chargeIds.length === 0) return 0;
  return db.payment.count({ where: { telegramChargeId: { in: chargeIds } } }).catch(() => 0);
}

/**
 * Every charge taken while the webhook was down is recorded against the order its payload names;
 * refunded only when that order is not paid (it could not be honoured), and never twice.
 */
async function lateChargesHonoured(
  ctx: FaultContext,
  chargeIds: string[],
): Promise<InvariantResult> {
  const kit = ctx.env.shop.kit;
  const rows = await ctx.env.db.payment.findMany({
    where: { telegramChargeId: { in: chargeIds } },
    select: { telegramChargeId: true, status: true, order: true },
  });
  const byCharge = new Map(rows.map((r) => [r.telegramChargeId, r]));
  const problems: string[] = [];
  let honoured = 0;
  for (const charge of kit.charges.filter((c) => chargeIds.includes(c.chargeId))) {
    const row = byCharge.get(charge.chargeId);
    const short = charge.chargeId.slice(0, 12);
    if (!row) problems.push(`${short}: not recorded`);
    else if (row.order?.publicId !== charge.payload)
      problems.push(`${short}: recorded ${row.status} without its order ${charge.payload}`);
    else if (row.status === "CAPTURED" && PAID.includes(row.order.status)) honoured++;
    else if (PAID.includes(row.order.status))
      problems.push(
        `${short}: refunded (${row.status}) while its order ${row.order.publicId} is paid`,
      );
  }
  ctx.note(`late charges: ${honoured} of ${chargeIds.length} paid for their orders`);
  return {
    name: `a late charge pays for its order (refunded only when the order cannot be honoured): ${honoured} of ${chargeIds.length} paid`,
    ok: problems.length === 0,
    violations: problems.length,
    examples: problems.slice(0, 5),
  };
}
