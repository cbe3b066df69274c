import type { Prisma } from "@orderbot/db";

type Payment = Prisma.PaymentModel;
import type { CoreDeps } from "../deps.ts";

export type RefundTracking = ReturnType<typeof createRefundTracking>;

export function createRefundTracking(deps: CoreDeps) {
  const { db, clock } = deps;
  return {
    /** Payments waiting for their refund, oldest first (reports, the operators' /orders view). */
    pendingRefunds: (limit: number): Promise<Payment[]> =>
      db.payment.findMany({
        where: { status: "REFUND_PENDING" },
        orderBy: { id: "asc" },
        take: limit,
      }),
    /**
     * REFUND_PENDING → REFUNDED once Telegram confirmed the refund (the relay calls this after
     * refundStarPayment; operators after a manual refund). False when it was not pending.
     */
    async markRefunded(telegramChargeId: string): Promise<boolean> {
      const { count } = await db.payment.updateMany({
        where: { telegramChargeId, status: "REFUND_PENDING" },
        data: { status: "REFUNDED", refundedAt: clock.now(), refundAttempts: { increment: 1 } },
      });
      if (count === 1) deps.metrics.operations.inc({ op: "refund_completed", outcome: "ok" });
      return count === 1;
    },
    /** Counts a failed refund attempt (the relay retries; operators see the count). */
    async recordRefundAttempt(telegramChargeId: string): Promise<void> {
      await db.payment.updateMany({
        where: { telegramChargeId, status: "REFUND_PENDING" },
        data: { refundAttempts: { increment: 1 } },
      });
    },
  };
}
