import { GrammyError } from "grammy";
import type { OrderView } from "@orderbot/core";
import { invoicePayload, newInvoiceNonce } from "@orderbot/core/payments";
import type { BotContext, PrivateButtonContext } from "../bot/context.ts";
import { callbacks } from "@orderbot/conversation";
import { orderCard } from "../format/order-card.ts";
import { itemLines } from "../format/order.ts";
import { invoiceDescription, invoiceTitle } from "../format/promo.ts";
import { payStartParameter } from "./pay-link.ts";
import type { PaymentsFeatureDeps } from "./payments.ts";
import { invoiceTerms, type InvoiceTerms } from "./shipping.ts";
import { alert, showInPlace } from "./support.ts";

type InvoiceDeps = Pick<PaymentsFeatureDeps, "orders" | "orderMessages" | "invoice">;

/** Pay on an order card: an invoice for an open order of the presser's own. */
export async function sendInvoiceOnPay(
  ctx: PrivateButtonContext,
  deps: InvoiceDeps,
  now: () => Date,
) {
  const data = callbacks.pay.decode(ctx.callbackQuery.data);
  if (!data) return ctx.answerCallbackQuery({ text: ctx.t("button-invalid") });
  const order = await deps.orders.get(data.orderId);
  if (!order || order.userId !== BigInt(ctx.from.id)) return alert(ctx, ctx.t("order-unknown"));
  const refusal = payRefusal(order, now);
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
  return sendInvoice(ctx, deps, order, terms);
}

/** The invoice itself, once the order may be paid: one live invoice per order. */
async function sendInvoice(
  ctx: PrivateButtonContext,
  deps: InvoiceDeps,
  order: OrderView,
  terms: Extract<InvoiceTerms, { ok: true }>,
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
      invoiceTitle(ctx.t, order.id),
      invoiceDescription(ctx.t, order, itemLines(ctx.t, order, ctx.locale)),
      invoicePayload(order.id, nonce),
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
}

/** Deletes one of the bot's messages; one that is gone or too old to delete is left as it is. */
async function deleteQuietly(ctx: BotContext, messageId: number): Promise<void> {
  await ctx.api.deleteMessage(ctx.chat!.id, messageId).catch((error: unknown) => {
    if (!(error instanceof GrammyError) || error.error_code !== 400) throw error;
  });
}

function payRefusal(order: OrderView, now: () => Date): string | null {
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
