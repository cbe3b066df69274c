// The invariant checker of a chaos run: the database's invariants, the updates' effects against
// the kit's records, and the lock audit from Redis's append-only file.
import {
  checkEffects,
  chargeLedgerOf,
  checkInvariants,
  checkOrdersHadLocks,
  type CustomerResult,
  type InvariantResult,
  type OrderPress,
} from "@orderbot/testkit";
import { CHECKOUT_TTL_MS, HASH_KEY, NAMESPACE, type ChaosEnvironment } from "./environment.ts";
import type { OutageRecord } from "./fault.ts";
import type { Sizes } from "./sizes.ts";

export async function checkAll(
  env: ChaosEnvironment,
  presses: OrderPress[],
  _sizes: Sizes,
  skippedUpdateIds?: ReadonlySet<number>,
): Promise<InvariantResult[]> {
  const kit = env.shop.kit;
  const refunded = kit
    .callsTo("refundStarPayment")
    .filter((c) => c.ok)
    .map((c) => String(c.params.telegram_payment_charge_id));
  const database = await checkInvariants(env.db, {
    // The worker expires due reservations every 0.5 s; allow for a leader that was just killed
    // (its job lock lapses after 3 s) and a restart.
    expirySlackMs: 10_000,
    paymentGraceMs: 5_000,
    telegram: { chargeIds: kit.charges.map((c) => c.chargeId), refundedChargeIds: refunded },
    outboxDrained: true,
    charges: chargeLedgerOf(kit),
  });
  const effects = await checkEffects(env.db, {
    kit,
    presses,
    // After the settle: a reply the outbox relay sent late counts.
    stockCommands: env.shop.operator.rereadReplies(),
    ...(skippedUpdateIds ? { skippedUpdateIds } : {}),
  });
  const locks = await checkOrdersHadLocks(env.db, {
    aofDir: env.aofDir,
    namespace: NAMESPACE,
    hashKey: HASH_KEY,
    checkoutTtlMs: CHECKOUT_TTL_MS,
  });
  return [...database, ...effects, locks];
}

/**
 * During a Redis outage: placing an order is refused with the message that says nothing was
 * reserved, and payments still go through on the database's guarantees. Both must be seen.
 */
export async function outageBehaviour(
  env: ChaosEnvironment,
  results: CustomerResult[],
  outages: OutageRecord[],
): Promise<InvariantResult> {
  const refusals = results.filter(
    (r) => r.press?.outcome === "unavailable" && /nothing was reserved/.test(r.press.answer ?? ""),
  ).length;
  // Payment rows are written inside confirmPayment's transaction: created while Redis was down
  // means confirmed without any lock, on the database's guarantees alone.
  let recorded = 0;
  for (const o of outages) {
    recorded += await env.db.payment.count({
      where: { createdAt: { gte: new Date(o.start), lte: new Date(o.end) } },
    });
  }
  const problems: string[] = [];
  if (refusals === 0) problems.push("no placement was refused with the outage message");
  if (recorded === 0) problems.push("no payment was confirmed during the outage");
  return {
    name: `during the Redis outage: ${refusals} placements refused with the message, ${recorded} payments confirmed on database guarantees`,
    ok: problems.length === 0,
    violations: problems.length,
    examples: problems,
  };
}
