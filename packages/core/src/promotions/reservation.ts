import type { PromoKind, Tx } from "@orderbot/db";
import type { CoreDeps } from "../deps.ts";
import { Rollback } from "../database/db-errors.ts";
import { takePromoUse } from "./take-use.ts";
import { priceWithCode, type PromoRefusal } from "./terms.ts";

/** The code an order is placed with, and what it takes off (computed here, never by the client). */
export interface OrderPromo {
  status: "ok";
  codeId: number;
  code: string;
  kind: PromoKind;
  value: number;
  discountMinor: number;
  /** The amount to charge: the subtotal less the discount. */
  totalMinor: number;
}

/**
 * Prices an order with its code before the reservation's transaction, from a fresh read of the
 * code: a refusal here (expired, used up, below the minimum) costs no transaction. What this read
 * says about uses left is only a hint; `takeOrderPromoUse` decides in the transaction.
 */
export async function priceOrderPromo(
  deps: CoreDeps,
  codeId: number,
  subtotalMinor: number,
  currency: string,
): Promise<OrderPromo | PromoRefusal> {
  const code = await deps.db.promoCode.findUnique({ where: { id: codeId } });
  if (!code) return { status: "promo-refused", reason: "unknown", code: "" };
  const price = priceWithCode(code, { subtotalMinor, currency, now: deps.clock.now() });
  if (price.status !== "ok") return price;
  return {
    status: "ok",
    codeId: code.id,
    code: code.code,
    kind: code.kind,
    value: code.value,
    discountMinor: price.discountMinor,
    totalMinor: price.totalMinor,
  };
}

/**
 * Takes the order's use inside the reservation's transaction, or rolls the whole reservation back
 * with the reason (nothing reserved). Runs after the order's row and before the products' rows:
 * the code's row is the one other hot row of a sale, held from here to the commit.
 */
export async function takeOrderPromoUse(
  tx: Tx,
  deps: CoreDeps,
  promo: OrderPromo,
  order: { id: number; userId: bigint },
): Promise<void> {
  const taken = await takePromoUse(tx, {
    codeId: promo.codeId,
    userId: order.userId,
    orderId: order.id,
    now: deps.clock.now(),
  });
  if (taken === "taken") return;
  deps.metrics.operations.inc({ op: "promo_use", outcome: taken.replace(/-/g, "_") });
  if (taken === "used-by-you")
    throw new Rollback({
      status: "promo-refused",
      reason: "used-by-you",
      code: promo.code,
    } satisfies PromoRefusal);
  // The conditional decrement matched nothing: say which of its conditions failed.
  const code = await tx.promoCode.findUnique({ where: { id: promo.codeId } });
  const now = deps.clock.now();
  const reason: PromoRefusal["reason"] = !code
    ? "unknown"
    : !code.active
      ? "inactive"
      : code.startsAt && now < code.startsAt
        ? "not-started"
        : code.endsAt && now >= code.endsAt
          ? "expired"
          : "used-up";
  throw new Rollback({ status: "promo-refused", reason, code: promo.code } satisfies PromoRefusal);
}
