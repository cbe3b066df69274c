import type { Prisma } from "@orderbot/db";

type Payment = Prisma.PaymentModel;
import type { CoreDeps } from "../deps.ts";

export interface RefundTracking {
  /** Payments waiting for their refund, oldest first (reports, the operators' /orders view). */
  pendingRefunds(limit: number): Promise<Payment[]>;
  /**
   * REFUND_PENDING → REFUNDED once Telegram confirmed the refund (the relay calls this after
   * refundStarPayment; operators after a manual refund). False when it was not pending.
   */
  markRefunded(telegramChargeId: string): Promise<boolean>;
  /** Counts a failed refund attempt (the relay retries; operators see the count). */
  recordRefundAttempt(telegramChargeId: string): Promise<void>;
}

export function createRefundTracking(deps: CoreDeps): RefundTracking {
  const { db, clock } = deps;
  return {
    pendingRefunds: (limit) =>
      db.payment.findMany({
        where: { status: "REFUND_PENDING" },
        orderBy: { id: "asc" },
        take: limit,
      }),
    async markRefunded(telegramChargeId) {
      const { count } = await db.payment.updateMany({
        where: { telegramChargeId, status: "REFUND_PENDING" },
        data: { status: "REFUNDED", refundedAt: clock.now(), refundAttempts: { increment: 1 } },
      });
      if (count === 1) deps.metrics.operations.inc({ op: "refund_completed", outcome: "ok" });
      return count === 1;
    },
    async recordRefundAttempt(telegramChargeId) {
      await db.payment.updateMany({
        where: { telegramChargeId, status: "REFUND_PENDING" },
        data: { refundAttempts: { increment: 1 } },
      });
    },
  };
}
