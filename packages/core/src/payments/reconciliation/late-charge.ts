import type { CoreDeps } from "../../deps.ts";
import type { createConfirmPayment } from "../confirm-payment.ts";
import { parseInvoicePayload } from "../invoice-payload.ts";
import { STARS } from "../pending-refunds.ts";

type ConfirmPayment = ReturnType<typeof createConfirmPayment>;

/** A charge in Telegram's ledger that the payments table does not have. */
export interface UnknownCharge {
  id: string;
  user_id: bigint;
  amount: number;
  payload: string | null;
}

export type LateChargeOutcome =
  /** The payload names no order: the caller records it order-less and refunds it. */
  | { status: "no-order" }
  /** The bot recorded it meanwhile: nothing was missing. */
  | { status: "duplicate" }
  /** Recorded against its order as its successful_payment would be: paid, or refunded for `reason`. */
  | { status: "recorded"; orderId: string; outcome: string };

/**
 * A late charge (its successful_payment has not reached the bot yet) is recorded through the very
 * path of a successful_payment, so it pays for the order it names, or is refunded only when that
 * path would refund it (the stock gone, a wrong amount). That path is idempotent on the charge
 * id: the update, when Telegram finally delivers it, changes nothing (docs/architecture.md,
 * Updates that carry money).
 */
export async function recordLateCharge(
  deps: Pick<CoreDeps, "db">,
  confirmPayment: ConfirmPayment,
  charge: UnknownCharge,
): Promise<LateChargeOutcome> {
  // Whichever invoice of the order was paid (a replaced one too): the money pays for the order.
  const invoice = parseInvoicePayload(charge.payload ?? "");
  if (!invoice) return { status: "no-order" };
  const order = await deps.db.order.findUnique({
    where: { publicId: invoice.orderId },
    select: { publicId: true },
  });
  if (!order) return { status: "no-order" };
  const result = await confirmPayment({
    orderId: order.publicId,
    userId: charge.user_id,
    telegramChargeId: charge.id,
    amount: charge.amount,
    currency: STARS,
  });
  if (result.status === "invalid") return { status: "no-order" };
  if (result.duplicate) return { status: "duplicate" };
  return {
    status: "recorded",
    orderId: order.publicId,
    outcome: result.status === "ok" ? "paid" : result.reason,
  };
}
