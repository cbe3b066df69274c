import type { Tx } from "@orderbot/db";

/**
 * Gives back the uses these orders took, in the transaction that moves them to EXPIRED or
 * CANCELLED (the caller has won that move, so each order comes here once). Still exactly once on
 * its own: a use is marked returned only `WHERE returned_at IS NULL`, and a code's remaining count
 * goes up by exactly the number of uses this statement marked, so a second call adds nothing.
 * The codes' rows are updated in id order (one per code), the order every reservation takes them in
 * (one code each), so two batches never wait on each other in a cycle. Called before the products'
 * stock moves: the order row, then the code, then the products, as in a reservation.
 */
export async function giveBackPromoUses(tx: Tx, orderIds: number[]): Promise<number> {
  if (orderIds.length === 0) return 0;
  const returned = await tx.$queryRaw<{ codeId: number; n: number }[]>`
    WITH returned AS (
      UPDATE promo_uses SET returned_at = now() AT TIME ZONE 'UTC'
      WHERE order_id = ANY(${orderIds}::int[]) AND returned_at IS NULL
      RETURNING code_id
    )
    SELECT code_id AS "codeId", count(*)::int AS n FROM returned GROUP BY code_id ORDER BY code_id`;
  for (const { codeId, n } of returned)
    await tx.$executeRaw`
      UPDATE promo_codes SET remaining_uses = remaining_uses + ${n}, updated_at = now() AT TIME ZONE 'UTC'
      WHERE id = ${codeId}`;
  return returned.reduce((sum, r) => sum + r.n, 0);
}

/**
 * A late payment for an order whose use went back (expired or cancelled, then paid, stock
 * re-reserved): the customer paid the discounted total, so the order takes its use again, under the
 * same rules as a reservation: a use left (active or not, window or not: the customer was given the
 * price while it was valid) and a free slot of theirs. Refused ("used-up"): the payment cannot pay
 * for the order and is refunded like one whose stock is gone. An order without a code: "none".
 */
export async function retakePromoUse(
  tx: Tx,
  orderId: number,
): Promise<"none" | "taken" | "held" | "used-up"> {
  const [use] = await tx.$queryRaw<
    { codeId: number; userId: bigint; returned: boolean }[]
  >`SELECT code_id AS "codeId", user_id AS "userId", returned_at IS NOT NULL AS returned
    FROM promo_uses WHERE order_id = ${orderId} FOR UPDATE`;
  if (!use) return "none";
  if (!use.returned) return "held";
  const decremented = await tx.$executeRaw`
    UPDATE promo_codes SET remaining_uses = remaining_uses - 1, updated_at = now() AT TIME ZONE 'UTC'
    WHERE id = ${use.codeId} AND remaining_uses > 0`;
  if (decremented === 0) return "used-up";
  const retaken = await tx.$executeRaw`
    UPDATE promo_uses SET returned_at = NULL, slot = free.slot
    FROM (
      SELECT s.slot FROM promo_codes c, generate_series(1, c.per_customer) AS s(slot)
      WHERE c.id = ${use.codeId}
        AND NOT EXISTS (
          SELECT 1 FROM promo_uses u
          WHERE u.code_id = c.id AND u.user_id = ${use.userId} AND u.slot = s.slot AND u.returned_at IS NULL)
      ORDER BY s.slot LIMIT 1
    ) AS free
    WHERE promo_uses.order_id = ${orderId}`;
  if (retaken === 0) {
    // No slot of theirs is free: undo the decrement (still in this transaction) and refuse.
    await tx.$executeRaw`
      UPDATE promo_codes SET remaining_uses = remaining_uses + 1 WHERE id = ${use.codeId}`;
    return "used-up";
  }
  return "taken";
}
