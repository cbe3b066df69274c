import { Composer, GrammyError } from "grammy";
import type {
  CheckPayableResult,
  OrderMessages,
  OrderService,
  OrderView,
  OutboxService,
  PaymentService,
  PayRefusal,
} from "@orderbot/core";
import { paymentNoticeKey } from "@orderbot/core";
import type { BotContext } from "../bot/context.ts";
import { callbacks } from "../callbacks/index.ts";
import { orderCard } from "../format/order-card.ts";
import { itemLines } from "../format/order.ts";
import { customerName } from "../format/customer-name.ts";
import { invoiceDescription, invoiceTitle } from "../format/promo.ts";
import { loggableError } from "../log-safety.ts";
import { updateReceivedAt } from "../updates/scope.ts";
import { mainMenuKeyboard } from "../keyboards/menu.ts";
import { payStartParameter } from "./pay-link.ts";
import { invoiceTerms, type InvoiceAsks, type ProviderSettings } from "./shipping.ts";
import { alert, showInPlace } from "./support.ts";

export interface PaymentsFeatureDeps {
  orders: OrderService;
  payments: PaymentService;
  /** Settles the confirmation queued with the payment once the bot's own reply has said it. */
  outbox: Pick<OutboxService, "settleInline">;
  /** The order's card (edited once it is paid) and its one live invoice. */
  orderMessages: OrderMessages;
  /**
   * Digital goods are invoiced in Stars; physical goods through `provider` (none: not sold),
   * asking for the address, a shipping option and what `asks` says.
   */
  invoice: { provider: ProviderSettings | null; asks: InvoiceAsks };
  now?: () => Date;
}

/** What a declined pre-checkout tells the user; every one says that nothing was charged. */
const REFUSAL_MESSAGES: Record<PayRefusal, string> = {
  invalid: "precheckout-not-found",
  "not-found": "precheckout-not-found",
  // Alike: someone else's order is answered as one that does not exist (nothing about it leaks).
  "not-yours": "precheckout-not-found",
  expired: "precheckout-expired",
  cancelled: "precheckout-cancelled",
  "already-paid": "precheckout-paid",
  "wrong-amount": "precheckout-wrong-amount",
  "wrong-currency": "precheckout-wrong-amount",
  "wrong-shipping": "precheckout-wrong-shipping",
  busy: "precheckout-busy",
  timeout: "precheckout-unavailable",
  unavailable: "precheckout-unavailable",
};

/**
 * Pay: an invoice for an open order of the presser's own; the pre-checkout answered within
 * Telegram's 10 s; the successful payment recorded once (the charge id is unique, so a second
 * delivery of it changes nothing and is not confirmed twice).
 */
export function paymentsFeature(deps: PaymentsFeatureDeps): Composer<BotContext> {
  const now = deps.now ?? (() => new Date());
  const feature = new Composer<BotContext>();
  const privateChats = feature.chatType("private");

  privateChats.callbackQuery(callbacks.pay.pattern, async (ctx) => {
    const data = callbacks.pay.decode(ctx.callbackQuery.data);
    if (!data) return ctx.answerCallbackQuery({ text: ctx.t("button-invalid") });
    const order = await deps.orders.get(data.orderId);
    if (!order || order.userId !== BigInt(ctx.from.id)) return alert(ctx, ctx.t("order-unknown"));
    const refusal = payRefusal(order);
    if (refusal) {
      await alert(ctx, ctx.t(refusal, { id: order.id }));
      // The message still offers Pay: show the order as it is now instead.
      const card = orderCard(ctx, order);
      return showInPlace(ctx, card.text, card.keyboard);
    }
    const terms = invoiceTerms(order, deps.invoice.provider, deps.invoice.asks);
    if (!terms.ok) {
      if (terms.reason === "physical-unavailable")
        return alert(ctx, ctx.t("pay-physical-unavailable", { id: order.id }));
      ctx.logger.error(
        { order: order.id, currency: order.currency },
        "order currency is neither XTR (digital) nor PROVIDER_CURRENCY (physical); no invoice sent",
      );
      return alert(ctx, ctx.t("unavailable"));
    }
    // The card Pay was pressed on is the one kept true when the order changes.
    const card = ctx.callbackQuery.message;
    if (card) await deps.orderMessages.setCard(order.id, ctx.chat.id, card.message_id);
    // One live invoice per order: of two taps, one claims it; the other is told it is there.
    const claim = await deps.orderMessages.claimInvoice(order.id, ctx.callbackQuery.id);
    if (claim.status !== "send")
      return ctx.answerCallbackQuery({ text: ctx.t("pay-invoice-already") });
    if (claim.replaces !== null) await deleteQuietly(ctx, claim.replaces);
    let invoice: { message_id: number };
    try {
      invoice = await ctx.replyWithInvoice(
        invoiceTitle(ctx.t, order.id),
        invoiceDescription(ctx.t, order, itemLines(ctx.t, order, ctx.locale)),
        order.id,
        order.currency,
        [{ label: invoiceTitle(ctx.t, order.id), amount: order.totalMinor }],
        // A forwarded copy gets a deep link back to the bot instead of a Pay button, so the
        // invoice is paid only where it was sent (and the link opens the order for its owner).
        {
          provider_token: terms.providerToken,
          start_parameter: payStartParameter(order.id),
          ...terms.extra,
        },
      );
    } catch (error) {
      await deps.orderMessages.releaseInvoice(order.id);
      // Telegram refused the invoice (an amount out of its range, a provider problem): say so
      // rather than leave the user waiting. Anything else fails the update, which is retried.
      if (!(error instanceof GrammyError) || error.error_code !== 400) throw error;
      ctx.logger.error(
        { order: order.id, description: error.description },
        "invoice refused by Telegram",
      );
      return alert(ctx, ctx.t("pay-invoice-refused", { id: order.id }));
    }
    await deps.orderMessages.invoiceSent(order.id, invoice.message_id);
    // Only now: "invoice sent" is true once the invoice exists.
    await ctx.answerCallbackQuery({ text: ctx.t("pay-invoice-sent") });
  });

  /** Deletes one of the bot's messages; one that is gone or too old to delete is left as it is. */
  async function deleteQuietly(ctx: BotContext, messageId: number): Promise<void> {
    await ctx.api.deleteMessage(ctx.chat!.id, messageId).catch((error: unknown) => {
      if (!(error instanceof GrammyError) || error.error_code !== 400) throw error;
    });
  }

  /** The order's card, if it has one, edited to show it paid: no Pay or Cancel any more. */
  async function refreshCard(ctx: BotContext, order: OrderView): Promise<void> {
    const ids = await deps.orderMessages.of(order.id);
    if (!ids?.cardMessageId || ids.chatId !== BigInt(ctx.chat!.id)) return;
    const card = orderCard(ctx, order);
    await ctx.api
      .editMessageText(ctx.chat!.id, ids.cardMessageId, card.text, { reply_markup: card.keyboard })
      .catch((error: unknown) => {
        // Not modified (already shown), or a card the customer deleted: nothing to fix.
        if (error instanceof GrammyError && error.error_code === 400) return;
        ctx.logger.warn({ err: loggableError(error) }, "order card not updated after payment");
      });
  }

  function payRefusal(order: OrderView): string | null {
    switch (order.status) {
      case "CANCELLED":
        return "pay-refused-cancelled";
      case "EXPIRED":
        return "pay-refused-expired";
      case "PAID":
      case "PROCESSING":
      case "SHIPPED":
      case "DELIVERED":
      case "REFUNDED":
        return "pay-refused-paid";
      case "RESERVED":
        return order.expiresAt <= now() ? "pay-refused-expired" : null;
      case "PAYING":
        return null;
    }
  }

  feature.on("pre_checkout_query", async (ctx) => {
    const query = ctx.preCheckoutQuery;
    const result = await deps.payments
      .checkPayable({
        orderId: query.invoice_payload,
        userId: query.from.id,
        amount: query.total_amount,
        currency: query.currency,
        // A physical order's: the amount must be goods + this option's configured price.
        shippingOptionId: query.shipping_option_id,
        shippingAddress: query.order_info?.shipping_address,
        // Telegram's 10 s run from the update's arrival, not from here.
        receivedAt: updateReceivedAt(),
      })
      .catch((error: unknown): CheckPayableResult => {
        // Declined now rather than retried: Telegram gives up on a pre-checkout after 10 s anyway.
        ctx.logger.error({ err: loggableError(error) }, "pre-checkout check failed; declined");
        return { status: "refused", reason: "unavailable" };
      });
    if (result.status === "ok") {
      await ctx.answerPreCheckoutQuery(true);
      return;
    }
    ctx.logger.info({ reason: result.reason }, "pre-checkout declined");
    await ctx.answerPreCheckoutQuery(false, {
      error_message: ctx.t(REFUSAL_MESSAGES[result.reason]),
    });
  });

  // In whatever chat it arrives (a private chat, a group where an invoice was forwarded before
  // invoices carried a start_parameter): the buyer has been charged, so it is recorded.
  feature.on("message:successful_payment", async (ctx) => {
    const payment = ctx.message.successful_payment;
    // Errors propagate: the update is re-delivered until the payment is recorded.
    const result = await deps.payments.confirmPayment({
      orderId: payment.invoice_payload,
      userId: ctx.from.id,
      telegramChargeId: payment.telegram_payment_charge_id,
      providerChargeId: payment.provider_payment_charge_id || null,
      amount: payment.total_amount,
      currency: payment.currency,
      shippingOptionId: payment.shipping_option_id,
      orderInfo: payment.order_info,
      locale: ctx.locale,
      customer: {
        name: customerName(ctx.from),
        username: ctx.from.username,
      },
    });
    // A duplicate said nothing: if the first delivery's reply was lost, the outbox sends it.
    if (result.status === "invalid" || result.duplicate) return;
    const id = payment.invoice_payload;
    // (A payment that cannot be applied is refunded, and the user told, through the outbox.)
    // Outside the private chat the reply would tell a group about the buyer's order: the outbox
    // confirms it in the private chat of the order instead (the notice is not settled here).
    if (ctx.chat.type !== "private") return;
    if (result.status !== "ok") {
      await ctx.reply(ctx.t("payment-refund-pending", { id }));
      return;
    }
    // confirmPayment queued this confirmation with the payment, due after a grace period: said
    // here, it is settled so that the worker does not say it again. If the reply fails, the outbox
    // says it (a re-delivery of this update would be a duplicate and say nothing).
    try {
      await ctx.reply(
        ctx.t("payment-received", { id, hasCodes: result.codesSent ? "yes" : "no" }),
        {
          reply_markup: mainMenuKeyboard(ctx.t),
        },
      );
    } catch (error) {
      ctx.logger.warn(
        { err: loggableError(error) },
        "payment confirmation reply failed; the outbox will send it",
      );
      return;
    }
    await deps.outbox.settleInline(paymentNoticeKey(result.order.id)).catch((error: unknown) => {
      ctx.logger.warn(
        { err: loggableError(error) },
        "payment confirmation sent but not settled; it may come twice",
      );
    });
    await refreshCard(ctx, result.order).catch((error: unknown) => {
      ctx.logger.warn({ err: loggableError(error) }, "order card not updated after payment");
    });
  });

  return feature;
}
