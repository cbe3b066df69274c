import { type Tx, utcTimestamp } from "@orderbot/db";

/**
 * Takes one use of a code for an order, inside the reservation's transaction (after the order row,
 * before the products: docs/architecture.md, Promo codes).
 *
 * 1. One conditional decrement: `remaining_uses > 0`, the code active and its window open at `now`.
 *    PostgreSQL serialises the decrements on the code's row, so of N racing reservations exactly
 *    the first `remaining_uses` get a row count of 1; the rest get 0 and are refused.
 * 2. The use's row, in the customer's first free slot of 1..per_customer. The slot is unique among
 *    uses not given back (a partial unique index), so "uses per customer" is a key, not a count
 *    read: no free slot, or a slot taken meanwhile, inserts nothing and the use is refused.
 *
 * Either refusal leaves the transaction to roll back (the caller throws), so nothing is reserved.
 * SQL: prisma/migrations/20261204010000_promo_codes (promo_codes_uses_check, promo_uses_held_slot_key).
 */
export async function takePromoUse(
  tx: Tx,
  use: { codeId: number; userId: bigint; orderId: number; now: Date },
): Promise<"taken" | "unavailable" | "used-by-you"> {
  const now = utcTimestamp(use.now);
  const decremented = await tx.$executeRaw`
    UPDATE promo_codes SET remaining_uses = remaining_uses - 1, updated_at = now() AT TIME ZONE 'UTC'
    WHERE id = ${use.codeId} AND remaining_uses > 0 AND active
      AND (starts_at IS NULL OR starts_at <= ${now}) AND (ends_at IS NULL OR ends_at > ${now})`;
  if (decremented === 0) return "unavailable";
  const inserted = await tx.$executeRaw`
    INSERT INTO promo_uses (code_id, user_id, slot, order_id)
    SELECT c.id, ${use.userId}, s.slot, ${use.orderId}
    FROM promo_codes c, generate_series(1, c.per_customer) AS s(slot)
    WHERE c.id = ${use.codeId}
      AND NOT EXISTS (
        SELECT 1 FROM promo_uses u
        WHERE u.code_id = c.id AND u.user_id = ${use.userId} AND u.slot = s.slot AND u.returned_at IS NULL)
    ORDER BY s.slot
    LIMIT 1
    ON CONFLICT (code_id, user_id, slot) WHERE returned_at IS NULL DO NOTHING`;
  return inserted === 1 ? "taken" : "used-by-you";
}
