// sendInvoice, answerPreCheckoutQuery and refundStarPayment, with Telegram's rules for Stars (XTR):
// exactly one price, an empty provider token, no tips, need_*/is_flexible ignored; a provider
// invoice needs a token and may have several prices and ask for name, phone, e-mail and address;
// a title of 1-32 characters, a description of 1-255, a payload of 1-128 bytes, every text valid
// UTF-8, a total within the currency's bounds and a deep-link start_parameter for any invoice.
import type { LabeledPrice } from "@grammyjs/types";
import { type Args, utf8Length } from "../args.ts";
import { badRequest } from "../errors.ts";
import { readReplyMarkup } from "../markup.ts";
import { refundCharge, STARS, starTransactionOf } from "../stars-ledger.ts";
import {
  assertCanWrite,
  checkFlood,
  type MethodHandler,
  replyTarget,
  resolveChat,
  unixNow,
} from "./context.ts";
import { shallow } from "./messages.ts";
import type { InvoiceAsks } from "../state.ts";

export const MAX_INVOICE_PAYLOAD_BYTES = 128;
export const MAX_INVOICE_TITLE = 32;
export const MAX_INVOICE_DESCRIPTION = 255;

/** Characters as Telegram counts an invoice's title and description: code points. */
const characters = (text: string): number => [...text].length;

/**
 * Telegram refuses any text that is not valid UTF-8 before reading it: a lone UTF-16 surrogate
 * (half an emoji, as `"\ud83d"` in JSON) cannot be encoded.
 */
function assertUtf8(...texts: string[]): void {
  if (texts.some((text) => !text.isWellFormed()))
    throw badRequest("strings must be encoded in UTF-8");
}

/**
 * What one invoice's total may be, in minor units, as Telegram checks it: Stars 1-10000;
 * provider currencies per currencies.json (min_amount/max_amount, the equivalent of US$1 and
 * US$10,000). Only currencies whose bounds do not move with exchange rates are listed; others
 * are not checked.
 */
export const INVOICE_TOTAL_LIMITS: Readonly<Record<string, { min: number; max: number }>> = {
  XTR: { min: 1, max: 10_000 },
  USD: { min: 100, max: 1_000_000 },
};

/** A deep-linking parameter: 1-64 characters of A-Z a-z 0-9 _ - (empty: none). */
const START_PARAMETER = /^[A-Za-z0-9_-]{1,64}$/;

function readPrices(args: Args): LabeledPrice[] {
  args.required("prices");
  return parsePrices(args.json("prices", "can't parse prices JSON object"));
}

/** A LabeledPrice array as Telegram checks it (an invoice's prices, a shipping option's). */
export function parsePrices(value: unknown): LabeledPrice[] {
  if (!Array.isArray(value)) throw badRequest("expected an Array of labeled prices");
  const prices = value.map((price: unknown): LabeledPrice => {
    const fail = (detail: string): Error => badRequest(`can't parse labeled price: ${detail}`);
    if (typeof price !== "object" || price === null) throw fail("LabeledPrice must be an Object");
    const { label, amount } = price as Record<string, unknown>;
    if (typeof label !== "string") throw fail(`Field "label" must be of type String`);
    if (label === "") throw fail("LabeledPrice label must be non-empty");
    const parsed =
      typeof amount === "number" || typeof amount === "string" ? Number(amount) : Number.NaN;
    if (!Number.isInteger(parsed)) throw fail(`Field "amount" must be of type Number or String`);
    return { label, amount: parsed };
  });
  if (prices.length === 0) throw badRequest("there must be at least one price");
  return prices;
}

/** An invoice's own terms (texts, prices, currency, token), checked before its chat is looked up. */
export function readTerms(args: Args) {
  const title = args.required("title");
  const description = args.required("description");
  const payload = args.required("payload");
  const prices = readPrices(args);
  assertUtf8(title, description, payload, ...prices.map((price) => price.label));
  if (characters(title) > MAX_INVOICE_TITLE) throw badRequest("INVOICE_TITLE_INVALID");
  if (characters(description) > MAX_INVOICE_DESCRIPTION)
    throw badRequest("INVOICE_DESCRIPTION_INVALID");
  if (utf8Length(payload) > MAX_INVOICE_PAYLOAD_BYTES) throw badRequest("INVOICE_PAYLOAD_INVALID");
  const currency = args.required("currency").toUpperCase();
  const providerToken = args.str("provider_token");
  const totalAmount = prices.reduce((sum, p) => sum + p.amount, 0);
  if (totalAmount <= 0) throw badRequest("total price must be positive");
  const limit = INVOICE_TOTAL_LIMITS[currency];
  if (limit && (totalAmount < limit.min || totalAmount > limit.max))
    throw badRequest("CURRENCY_TOTAL_AMOUNT_INVALID");
  const startParameter = args.str("start_parameter");
  if (startParameter !== "" && !START_PARAMETER.test(startParameter))
    throw badRequest("START_PARAM_INVALID");
  if (currency === STARS) {
    const tips = args.int("max_tip_amount", 0) > 0 || args.str("suggested_tip_amounts") !== "";
    if (prices.length !== 1 || providerToken !== "" || tips)
      throw badRequest("STARS_INVOICE_INVALID");
  } else if (providerToken === "") {
    throw badRequest("PAYMENT_PROVIDER_INVALID");
  }
  return { title, description, payload, currency, providerToken, totalAmount, startParameter };
}

export const sendInvoice: MethodHandler = (ctx, args) => {
  const { title, description, payload, currency, providerToken, totalAmount, startParameter } =
    readTerms(args);
  const markup = readReplyMarkup(args);
  const chat = resolveChat(ctx, args);
  assertCanWrite(ctx, chat);
  const reply = replyTarget(chat, args);
  checkFlood(ctx, chat, "sendInvoice");
  const invoice = {
    payload,
    currency,
    totalAmount,
    providerToken,
    // Telegram ignores need_*, is_flexible and send_*_to_provider for payments in Stars.
    ...(currency === STARS ? {} : { asks: readAsks(args) }),
  };
  const stored = ctx.state.addMessage(
    chat.chat.id,
    "bot",
    (messageId) => ({
      message_id: messageId,
      from: ctx.state.botUser,
      chat: chat.chat,
      date: unixNow(),
      ...(reply ? { reply_to_message: shallow(reply.message) } : {}),
      invoice: {
        title,
        description,
        start_parameter: startParameter,
        currency,
        total_amount: totalAmount,
      },
      ...(markup?.inline ? { reply_markup: markup.inline } : {}),
    }),
    invoice,
  );
  return structuredClone(stored.message);
};

export function readAsks(args: Args): InvoiceAsks {
  return {
    name: args.bool("need_name"),
    phoneNumber: args.bool("need_phone_number"),
    email: args.bool("need_email"),
    shippingAddress: args.bool("need_shipping_address"),
    flexible: args.bool("is_flexible"),
    phoneToProvider: args.bool("send_phone_number_to_provider"),
    emailToProvider: args.bool("send_email_to_provider"),
  };
}

export const answerPreCheckoutQuery: MethodHandler = (ctx, args) => {
  const ok = args.bool("ok");
  const errorMessage = ok ? undefined : args.required("error_message");
  const query = ctx.state.preCheckoutQueries.get(args.str("pre_checkout_query_id"));
  const late =
    query !== undefined && Date.now() - query.createdAt > ctx.settings.preCheckoutTimeoutMs;
  if (!query || query.answer || query.expired || late) {
    throw badRequest("query is too old and response timeout expired or query ID is invalid");
  }
  query.answer = { ok, ...(errorMessage !== undefined ? { errorMessage } : {}), at: Date.now() };
  ctx.state.notify();
  return true;
};

export const refundStarPayment: MethodHandler = (ctx, args) => {
  const userId = args.userId();
  const chargeId = args.required("telegram_payment_charge_id");
  const user = ctx.state.users.get(userId);
  if (!user) throw badRequest("USER_ID_INVALID");
  const charge = ctx.state.charges.get(chargeId);
  if (!charge || charge.userId !== userId || charge.currency !== STARS)
    throw badRequest("CHARGE_ID_INVALID");
  if (charge.refundedAt !== undefined) throw badRequest("CHARGE_ALREADY_REFUNDED");
  refundCharge(ctx, charge);
  return true;
};

/**
 * getStarTransactions: the bot's Stars transactions, oldest first. `offset` skips that many,
 * `limit` takes at most that many. Like Telegram's Bot API server, out-of-range values are
 * clamped, not refused: offset to 0 and up, limit to 1-100 (default 100).
 */
export const getStarTransactions: MethodHandler = (ctx, args) => {
  const offset = args.int("offset", 0, 0);
  const limit = args.int("limit", 100, 1, 100);
  const { state } = ctx;
  return {
    transactions: state.starLedger
      .slice(offset, offset + limit)
      .map((entry) => starTransactionOf(state, entry)),
  };
};
