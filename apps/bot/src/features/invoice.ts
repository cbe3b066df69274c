import { GrammyError } from "grammy";
import type { OrderView } from "@orderbot/core";
import {
  invoiceFor,
  invoicePayload,
  newInvoiceNonce,
  type InvoiceAsks,
  type InvoiceTerms,
} from "@orderbot/core/payments";
import type { BotContext, PrivateButtonContext } from "../bot/context.ts";
import { callbacks } from "@orderbot/conversation";
import { orderCard } from "../format/order-card.ts";
import { itemLines } from "../format/order.ts";
import { invoiceDescription, invoiceTitle } from "../format/promo.ts";
import { payStartParameter } from "./pay-link.ts";
import type { PaymentsFeatureDeps } from "./payments.ts";
import { alert, showInPlace } from "./support.ts";

type InvoiceDeps = Pick<PaymentsFeatureDeps, "orders" | "orderMessages" | "invoice">;

/** What each refusal of a closed order tells the presser. */
const CLOSED = {
  cancelled: "pay-refused-cancelled",
  expired: "pay-refused-expired",
  "already-paid": "pay-refused-paid",
} as const;

/** Pay on an order card: an invoice for an open order of the presser's own. */
export async function sendInvoiceOnPay(
  ctx: PrivateButtonContext,
  deps: InvoiceDeps,
  now: () => Date,
) {
  const data = callbacks.pay.decode(ctx.callbackQuery.data);
  if (!data) return ctx.answerCallbackQuery({ text: ctx.t("button-invalid") });
  const order = await deps.orders.getOwn(data.orderId, ctx.from.id);
  const result = invoiceFor(order, { userId: ctx.from.id }, { settings: deps.invoice, now: now() });
  switch (result.status) {
    case "not-found":
      return alert(ctx, ctx.t("order-unknown"));
    case "refused": {
      await alert(ctx, ctx.t(CLOSED[result.reason], { id: result.order.id }));
      // The message still offers Pay: show the order as it is now instead.
      const card = orderCard(ctx, result.order);
      return showInPlace(ctx, card.text, card.keyboard);
    }
    case "not-sold":
      if (result.reason === "physical-unavailable")
        return alert(ctx, ctx.t("pay-physical-unavailable", { id: result.order.id }));
      ctx.logger.error(
        { order: result.order.id, currency: result.order.currency },
        "order currency is neither XTR (digital) nor PROVIDER_CURRENCY (physical); no invoice sent",
      );
      return alert(ctx, ctx.t("unavailable"));
    case "ok":
      return sendInvoice(ctx, deps, result.order, result.terms);
  }
}

/** The invoice itself, once the order may be paid: one live invoice per order. */
async function sendInvoice(
  ctx: PrivateButtonContext,
  deps: InvoiceDeps,
  order: OrderView,
  terms: InvoiceTerms,
) {
  // The card Pay was pressed on is the one kept true when the order changes.
  const card = ctx.callbackQuery.message;
  if (card) await deps.orderMessages.setCard(order.id, ctx.chat.id, card.message_id);
  // One live invoice per order: of two taps, one claims it; the other is told it is there. The
  // claim records the nonce first, so an earlier invoice never tracked (a re-delivered press) is
  // declined at pre-checkout.
  const nonce = deps.invoice.nonce ? newInvoiceNonce() : null;
  const claim = await deps.orderMessages.claimInvoice(order.id, ctx.callbackQuery.id, nonce);
  if (claim.status !== "send")
    return ctx.answerCallbackQuery({ text: ctx.t("pay-invoice-already") });
  if (claim.replaces !== null) await deleteQuietly(ctx, claim.replaces);
  let invoice: { message_id: number };
  try {
    invoice = await ctx.replyWithInvoice(
      invoiceTitle(ctx.t, terms.title.orderId),
      invoiceDescription(ctx.t, terms.description, itemLines(ctx.t, terms.description, ctx.locale)),
      invoicePayload(order.id, nonce),
      terms.currency,
      [{ label: invoiceTitle(ctx.t, terms.title.orderId), amount: terms.amountMinor }],
      // A forwarded copy gets a deep link back to the bot instead of a Pay button, so the
      // invoice is paid only where it was sent (and the link opens the order for its owner).
      {
        provider_token: terms.payVia === "provider" ? (deps.invoice.provider?.token ?? "") : "",
        start_parameter: payStartParameter(order.id),
        ...telegramAsks(terms.asks),
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
}

/** Deletes one of the bot's messages; one that is gone or too old to delete is left as it is. */
async function deleteQuietly(ctx: BotContext, messageId: number): Promise<void> {
  await ctx.api.deleteMessage(ctx.chat!.id, messageId).catch((error: unknown) => {
    if (!(error instanceof GrammyError) || error.error_code !== 400) throw error;
  });
}

/**
 * What the payment form asks, in Telegram's fields: a physical order's address with a choice of
 * shipping options (is_flexible), and what the shop configured. None for Stars (Telegram ignores
 * every need_* field for them).
 */
function telegramAsks(asks: InvoiceAsks | null): Record<string, boolean> {
  if (!asks) return {};
  return {
    need_name: asks.name,
    need_phone_number: asks.phone,
    need_email: asks.email,
    need_shipping_address: asks.shippingAddress,
    is_flexible: asks.shippingAddress,
  };
}
