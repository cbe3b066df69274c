// A user paying an invoice, step by step as Telegram runs it: for a flexible provider invoice a
// shipping_query and the bot's options first (shipping-step.ts), then pre_checkout_query, the bot's
// answer within the deadline (pre-checkout-step.ts), then the successful_payment message with a
// unique charge id.
import { FakeTelegramError } from "./errors.ts";
import type { KitContext } from "./methods/context.ts";
import { invoiceOfLink } from "./methods/invoice-links.ts";
import { recordCharge, STARS, uniqueChargeId } from "./stars-ledger.ts";
import type { ChatRecord, ChargeRecord, StoredMessage } from "./state.ts";
import type { TgMessage, User } from "./types.ts";
import { postUserMessage } from "./updates.ts";
import { actionOf, type UserAction } from "./actions.ts";
import type { LabeledPrice, OrderInfo, ShippingOption } from "@grammyjs/types";
import { askPreCheckout, type FormDetails } from "./pre-checkout-step.ts";
import {
  askShipping,
  type BuyerDetails,
  defaultBuyer,
  needsShippingQuery,
  orderInfoFor,
  type ShippingStep,
} from "./shipping-step.ts";

export interface PayOptions {
  /** The invoice message (or its id). Default: the newest unpaid invoice from the bot in the chat. */
  invoice?: TgMessage | number;
  /** How long the user waits for answerPreCheckoutQuery. Default: the kit's preCheckoutTimeoutMs (10 s). */
  timeoutMs?: number;
  /** What the buyer types into a provider invoice's form; defaults: defaultBuyer (an address in Berlin). */
  buyer?: BuyerDetails;
  /** Which of the shipping options the bot offered to choose (by id). Default: the first. */
  shippingOptionId?: string;
}

/** A flexible invoice's shipping_query, when there was one. */
interface Shipped {
  shippingQuery?: UserAction;
  shippingQueryId?: string;
}

interface Attempted {
  /** The pre_checkout_query update. */
  preCheckout: UserAction;
  preCheckoutQueryId: string;
}

export type PaymentResult =
  | (Attempted &
      Shipped &
      UserAction & {
        status: "paid";
        chargeId: string;
        providerChargeId: string;
        currency: string;
        totalAmount: number;
        payload: string;
        /** The successful_payment message (its update is this result's `update`). */
        message: TgMessage;
        shippingOptionId?: string;
        orderInfo?: OrderInfo;
      })
  | (Attempted & Shipped & { status: "declined"; errorMessage: string })
  | (Attempted & Shipped & { status: "timeout" })
  /** The bot refused the address (answerShippingQuery ok=false): nothing was charged. */
  | (NotAttempted & { status: "shipping-declined"; errorMessage: string })
  /** The bot did not answer the shipping_query in time: the payment form gave up. */
  | (NotAttempted & { status: "shipping-timeout" });

/** Stopped at the shipping step: no pre_checkout_query was sent. */
interface NotAttempted {
  shippingQuery: UserAction;
  shippingQueryId: string;
  preCheckout?: undefined;
  preCheckoutQueryId?: undefined;
}

export async function payInvoice(
  ctx: KitContext,
  user: User,
  chat: ChatRecord,
  options: PayOptions,
): Promise<PaymentResult> {
  return payStored(ctx, user, chat, findInvoice(chat, options.invoice), options);
}

/**
 * Pays an invoice link made by createInvoiceLink, as Telegram.WebApp.openInvoice does: the same
 * steps as an invoice message, and the successful_payment arrives in the user's private chat with
 * the bot. A link may be paid more than once (each payment is a charge of its own).
 */
export async function payInvoiceLink(
  ctx: KitContext,
  user: User,
  chat: ChatRecord,
  url: string,
  options: Omit<PayOptions, "invoice">,
): Promise<PaymentResult> {
  const invoice = invoiceOfLink(ctx.state.invoiceLinks, url);
  if (!invoice) throw new FakeTelegramError(`${url} is not an invoice link of this bot`);
  // No message shows a link's invoice: message id 0 stands for "none".
  const stored: StoredMessage = {
    message: { message_id: 0, date: Math.floor(Date.now() / 1000), chat: chat.chat },
    fromBot: true,
    deleted: false,
    invoice: { ...invoice },
  };
  return payStored(ctx, user, chat, stored, options);
}

async function payStored(
  ctx: KitContext,
  user: User,
  chat: ChatRecord,
  stored: StoredMessage,
  options: Omit<PayOptions, "invoice">,
): Promise<PaymentResult> {
  const invoice = stored.invoice!;
  if (invoice.paidChargeId) {
    throw new FakeTelegramError(
      `invoice message ${stored.message.message_id} is already paid (${invoice.paidChargeId})`,
    );
  }
  const timeoutMs = options.timeoutMs ?? ctx.settings.preCheckoutTimeoutMs;
  const buyer = { ...defaultBuyer(user), ...options.buyer };
  const orderInfo = orderInfoFor(invoice.asks, user, buyer);
  let shipping: Extract<ShippingStep, { status: "answered" }> | undefined;
  if (needsShippingQuery(invoice.asks)) {
    ctx.state.markUserAction(chat.chat.id);
    const step = await askShipping(ctx, user, invoice.payload, buyer.shippingAddress, timeoutMs);
    if (step.status !== "answered") return stoppedAtShipping(step);
    shipping = step;
  }
  const chosen = shipping && chooseOption(shipping.options, options.shippingOptionId);
  const form: FormDetails = {
    totalAmount: invoice.totalAmount + (chosen ? sumOf(chosen.prices) : 0),
    shippingOptionId: chosen?.id,
    orderInfo,
  };
  const check = await askPreCheckout(ctx, user, chat, stored, form, timeoutMs);
  const attempted: Attempted & Shipped = {
    ...(shipping
      ? { shippingQuery: shipping.shippingQuery, shippingQueryId: shipping.shippingQueryId }
      : {}),
    preCheckout: check.preCheckout,
    preCheckoutQueryId: check.preCheckoutQueryId,
  };
  if (check.status === "timeout") return { ...attempted, status: "timeout" };
  if (check.status === "declined")
    return { ...attempted, status: "declined", errorMessage: check.errorMessage };
  return { ...attempted, ...recordPayment(ctx, user, chat, stored, form) };
}

/** The bot refused the address or never answered: the form stops before any pre_checkout_query. */
function stoppedAtShipping(step: Exclude<ShippingStep, { status: "answered" }>): PaymentResult {
  const sent = { shippingQuery: step.shippingQuery, shippingQueryId: step.shippingQueryId };
  if (step.status === "timeout") return { ...sent, status: "shipping-timeout" };
  return { ...sent, status: "shipping-declined", errorMessage: step.errorMessage };
}

/** The shipping option the buyer picks: the one asked for by id, or else the first offered. */
function chooseOption(offered: ShippingOption[], wanted: string | undefined): ShippingOption {
  const chosen = wanted ? offered.find((o) => o.id === wanted) : offered[0];
  if (!chosen)
    throw new FakeTelegramError(
      `the bot offered no shipping option "${wanted}" (offered: ${offered.map((o) => o.id).join(", ")})`,
    );
  return chosen;
}

const sumOf = (prices: LabeledPrice[]): number => prices.reduce((sum, p) => sum + p.amount, 0);

function recordPayment(
  ctx: KitContext,
  user: User,
  chat: ChatRecord,
  stored: StoredMessage,
  form: FormDetails,
): UserAction & { status: "paid" } & Omit<ChargeRecord, "userId" | "chatId" | "paidAt"> & {
    message: TgMessage;
    shippingOptionId?: string;
    orderInfo?: OrderInfo;
  } {
  const invoice = stored.invoice!;
  const chargeId = uniqueChargeId(ctx.state);
  const providerChargeId =
    invoice.currency === STARS ? "" : `${Date.now()}_${chargeId.slice(3, 15)}`;
  recordCharge(ctx.state, {
    chargeId,
    providerChargeId,
    userId: user.id,
    chatId: chat.chat.id,
    currency: invoice.currency,
    totalAmount: form.totalAmount,
    payload: invoice.payload,
    paidAt: Date.now(),
  });
  invoice.paidChargeId = chargeId;
  const posted = postUserMessage(ctx, chat, user, {
    successful_payment: {
      currency: invoice.currency,
      total_amount: form.totalAmount,
      invoice_payload: invoice.payload,
      ...(form.shippingOptionId !== undefined ? { shipping_option_id: form.shippingOptionId } : {}),
      ...(form.orderInfo ? { order_info: structuredClone(form.orderInfo) } : {}),
      telegram_payment_charge_id: chargeId,
      provider_payment_charge_id: providerChargeId,
    },
  });
  return {
    ...actionOf(posted.queued),
    status: "paid",
    chargeId,
    providerChargeId,
    currency: invoice.currency,
    totalAmount: form.totalAmount,
    payload: invoice.payload,
    message: structuredClone(posted.stored.message),
    ...(form.shippingOptionId !== undefined ? { shippingOptionId: form.shippingOptionId } : {}),
    ...(form.orderInfo ? { orderInfo: structuredClone(form.orderInfo) } : {}),
  };
}

function findInvoice(chat: ChatRecord, wanted: PayOptions["invoice"]): StoredMessage {
  if (wanted !== undefined) {
    const messageId = typeof wanted === "number" ? wanted : wanted.message_id;
    const stored = chat.messages.get(messageId);
    if (stored?.message.invoice && !stored.invoice && !stored.deleted) {
      throw new FakeTelegramError(
        `message ${messageId} in chat ${chat.chat.id} is a forwarded invoice with a start_parameter: it has no Pay button, only a deep link to the bot`,
      );
    }
    if (!stored?.invoice || stored.deleted) {
      throw new FakeTelegramError(`message ${messageId} in chat ${chat.chat.id} is not an invoice`);
    }
    return stored;
  }
  const newest = [...chat.messages.values()]
    .reverse()
    .find((m) => m.invoice && !m.deleted && !m.invoice.paidChargeId);
  if (!newest) throw new FakeTelegramError(`no unpaid invoice in chat ${chat.chat.id}`);
  return newest;
}
