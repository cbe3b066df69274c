// Whether an order's state lets it be paid now: one rule for offering an invoice (invoiceFor) and
// for accepting a payment (checkPayable), so that no way in offers what the other would refuse.
import type { OrderStatus } from "@orderbot/db";

export type ClosedToPayment = "cancelled" | "expired" | "already-paid";

/**
 * Why an order in this state cannot be paid now, or null if it can. A PAYING order (a pre-checkout
 * was answered) stays payable for `paymentGraceMs` past its reservation.
 */
export function closedToPayment(
  order: { status: OrderStatus; expiresAt: Date },
  now: Date,
  paymentGraceMs: number,
): ClosedToPayment | null {
  switch (order.status) {
    case "PAID":
    case "PROCESSING":
    case "SHIPPED":
    case "DELIVERED":
    case "REFUNDED":
      return "already-paid";
    case "CANCELLED":
      return "cancelled";
    case "EXPIRED":
      return "expired";
    case "RESERVED":
      return order.expiresAt <= now ? "expired" : null; // due, the worker just has not run yet
    case "PAYING":
      return order.expiresAt.getTime() + paymentGraceMs <= now.getTime() ? "expired" : null;
  }
}
