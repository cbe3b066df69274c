import { Composer, GrammyError, type Filter } from "grammy";
import type { OrderView } from "@orderbot/core";
import type { OrderService } from "@orderbot/core/orders";
import type { OutboxService } from "@orderbot/core/outbox";
import type {
  CheckPayableResult,
  InvoicePayload,
  PaymentService,
  PayRefusal,
} from "@orderbot/core/payments";
import { parseInvoicePayload, paymentNoticeKey } from "@orderbot/core/payments";
import type { BotContext } from "../bot/context.ts";
import { callbacks, type OrderMessages } from "@orderbot/conversation";
import { orderCard } from "../format/order-card.ts";
import { customerName } from "../format/customer-name.ts";
import { loggableError } from "../log-safety.ts";
import { updateReceivedAt } from "../updates/scope.ts";
import { mainMenuKeyboard } from "../keyboards/menu.ts";
import { sendInvoiceOnPay } from "./invoice.ts";
import type { FeatureDeps } from "./deps.ts";

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
  invoice: FeatureDeps["payments"];
  now?: () => Date;
}

/** What a declined pre-checkout tells the user; every one says that nothing was charged. */
const REFUSAL_MESSAGES: Record<PayRefusal | "replaced", string> = {
  // Not the order's latest invoice: only that one is paid.
  replaced: "precheckout-replaced",
  invalid: "precheckout-not-found",
  // Someone else's order too: core answers it as one that does not exist.
  "not-found": "precheckout-not-found",
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
  feature
    .chatType("private")
    .callbackQuery(callbacks.pay.pattern, (ctx) => sendInvoiceOnPay(ctx, deps, now));
  feature.on("pre_checkout_query", (ctx) => answerPreCheckout(ctx, deps));
  // In whatever chat it arrives (a private chat, a group where an invoice was forwarded before
  // invoices carried a start_parameter): the buyer has been charged, so it is recorded.
  feature.on("message:successful_payment", (ctx) => recordPayment(ctx, deps));
  return feature;
}

type PreCheckoutContext = Filter<BotContext, "pre_checkout_query">;

/** Yes or no within Telegram's 10 s; a no says why, and that nothing was charged. */
async function answerPreCheckout(
  ctx: PreCheckoutContext,
  deps: Pick<PaymentsFeatureDeps, "payments" | "orderMessages">,
): Promise<void> {
  const invoice = parseInvoicePayload(ctx.preCheckoutQuery.invoice_payload);
  const live = invoice ? await liveInvoice(ctx, deps.orderMessages, invoice) : "live";
  if (live !== "live") return decline(ctx, live === "replaced" ? "replaced" : "unavailable");
  const result = await checkPayable(ctx, deps.payments, invoice?.orderId);
  if (result.status === "ok") {
    await ctx.answerPreCheckoutQuery(true);
    return;
  }
  await decline(ctx, result.reason);
}

/**
 * Only the order's latest invoice is paid: an earlier one may be in the chat untracked (its
 * message id lost with its update, whose re-delivery sent another).
 */
async function liveInvoice(
  ctx: PreCheckoutContext,
  orderMessages: OrderMessages,
  invoice: InvoicePayload,
): Promise<"live" | "replaced" | "unknown"> {
  try {
    return (await orderMessages.isLiveInvoice(invoice.orderId, invoice.nonce))
      ? "live"
      : "replaced";
  } catch (error) {
    ctx.logger.error({ err: loggableError(error) }, "live invoice look-up failed; declined");
    return "unknown";
  }
}

/** `orderId` undefined: the payload names no order, and the check refuses it as invalid. */
function checkPayable(
  ctx: PreCheckoutContext,
  payments: PaymentService,
  orderId: string | undefined,
): Promise<CheckPayableResult> {
  const query = ctx.preCheckoutQuery;
  return payments
    .checkPayable({
      orderId: orderId ?? query.invoice_payload,
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
}

async function decline(ctx: PreCheckoutContext, reason: PayRefusal | "replaced"): Promise<void> {
  ctx.logger.info({ reason }, "pre-checkout declined");
  await ctx.answerPreCheckoutQuery(false, { error_message: ctx.t(REFUSAL_MESSAGES[reason]) });
}

type PaymentContext = Filter<BotContext, "message:successful_payment">;

/** Records the charge once (a second delivery changes nothing), then confirms it in the chat. */
async function recordPayment(ctx: PaymentContext, deps: PaymentsFeatureDeps): Promise<void> {
  const payment = ctx.message.successful_payment;
  // Whichever invoice of the order was paid, a replaced one too: the money is recorded against the
  // order (a second payment of it is refunded, as any is).
  const id = parseInvoicePayload(payment.invoice_payload)?.orderId ?? payment.invoice_payload;
  // Errors propagate: the update is re-delivered until the payment is recorded.
  const result = await deps.payments.confirmPayment({
    orderId: id,
    userId: ctx.from.id,
    telegramChargeId: payment.telegram_payment_charge_id,
    providerChargeId: payment.provider_payment_charge_id || null,
    amount: payment.total_amount,
    currency: payment.currency,
    shippingOptionId: payment.shipping_option_id,
    orderInfo: payment.order_info,
    customer: {
      name: customerName(ctx.from),
      username: ctx.from.username,
    },
  });
  // A duplicate said nothing: if the first delivery's reply was lost, the outbox sends it.
  if (result.status === "invalid" || result.duplicate) return;
  // (A payment that cannot be applied is refunded, and the user told, through the outbox.)
  // Outside the private chat the reply would tell a group about the buyer's order: the outbox
  // confirms it in the private chat of the order instead (the notice is not settled here).
  if (ctx.chat.type !== "private") return;
  if (result.status !== "ok") {
    await ctx.reply(ctx.t("payment-refund-pending", { id }));
    return;
  }
  await sayPaymentReceived(ctx, deps, result.order, result.codesSent);
}

/** The confirmation, said here rather than by the outbox, and the card shown paid. */
async function sayPaymentReceived(
  ctx: PaymentContext,
  deps: PaymentsFeatureDeps,
  order: OrderView,
  codesSent: boolean,
): Promise<void> {
  const id = order.id;
  // confirmPayment queued this confirmation with the payment, due after a grace period: said
  // here, it is settled so that the worker does not say it again. If the reply fails, the outbox
  // says it (a re-delivery of this update would be a duplicate and say nothing).
  try {
    await ctx.reply(ctx.t("payment-received", { id, hasCodes: codesSent ? "yes" : "no" }), {
      reply_markup: mainMenuKeyboard(ctx.t),
    });
  } catch (error) {
    ctx.logger.warn(
      { err: loggableError(error) },
      "payment confirmation reply failed; the outbox will send it",
    );
    return;
  }
  await deps.outbox.settleInline(paymentNoticeKey(order.id)).catch((error: unknown) => {
    ctx.logger.warn(
      { err: loggableError(error) },
      "payment confirmation sent but not settled; it may come twice",
    );
  });
  await refreshCard(ctx, deps.orderMessages, order).catch((error: unknown) => {
    ctx.logger.warn({ err: loggableError(error) }, "order card not updated after payment");
  });
}

/** The order's card, if it has one, edited to show it paid: no Pay or Cancel any more. */
async function refreshCard(
  ctx: BotContext,
  orderMessages: OrderMessages,
  order: OrderView,
): Promise<void> {
  const ids = await orderMessages.of(order.id);
  if (!ids?.cardMessageId || order.chatId !== BigInt(ctx.chat!.id)) return;
  const card = orderCard(ctx, order);
  await ctx.api
    .editMessageText(ctx.chat!.id, ids.cardMessageId, card.text, { reply_markup: card.keyboard })
    .catch((error: unknown) => {
      // Not modified (already shown), or a card the customer deleted: nothing to fix.
      if (error instanceof GrammyError && error.error_code === 400) return;
      ctx.logger.warn({ err: loggableError(error) }, "order card not updated after payment");
    });
}
