import { Composer } from "grammy";
import type { PaymentService } from "@orderbot/core/payments";
import type { BotContext } from "../bot/context.ts";

/**
 * `refunded_payment`: Telegram's service message that a payment was refunded, in whatever chat it
 * was paid, whoever refunded it (Telegram itself, or the bot's own refundStarPayment coming back).
 * Core records it once and moves the order on; operators are alerted through the outbox when the
 * refund was not the shop's. The bot says nothing: the service message already tells the buyer,
 * and it must not meet the "did not understand" fallback. Errors propagate, so Telegram delivers
 * it again until it is recorded.
 */
export function refundedPaymentFeature(deps: {
  payments: Pick<PaymentService, "recordTelegramRefund">;
}): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  feature.on("message:refunded_payment", async (ctx) => {
    const refund = ctx.message.refunded_payment;
    const result = await deps.payments.recordTelegramRefund({
      telegramChargeId: refund.telegram_payment_charge_id,
      providerChargeId: refund.provider_payment_charge_id || null,
      userId: ctx.from?.id ?? ctx.chat.id,
      amount: refund.total_amount,
      currency: refund.currency,
    });
    ctx.logger.info({ outcome: result.status }, "refunded_payment handled");
  });
  return feature;
}
