// sendInvoice, answerPreCheckoutQuery and refundStarPayment, with Telegram's rules for Stars (XTR):
// exactly one price, an empty provider token, no tips; a payload of 1-128 bytes for any invoice.
import type { LabeledPrice } from "@grammyjs/types";
import { type Args, utf8Length } from "../args.ts";
import { badRequest } from "../errors.ts";
import { readReplyMarkup } from "../markup.ts";
import { postUserMessage } from "../updates.ts";
import {
  assertCanWrite,
  checkFlood,
  type MethodHandler,
  replyTarget,
  resolveChat,
  unixNow,
} from "./context.ts";
import { shallow } from "./messages.ts";

export const MAX_INVOICE_PAYLOAD_BYTES = 128;
export const STARS = "XTR";

function readPrices(args: Args): LabeledPrice[] {
  args.required("prices");
  const value = args.json("prices", "can't parse prices JSON object");
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

export const sendInvoice: MethodHandler = (ctx, args) => {
  const title = args.required("title");
  const description = args.required("description");
  const payload = args.required("payload");
  if (utf8Length(payload) > MAX_INVOICE_PAYLOAD_BYTES) throw badRequest("INVOICE_PAYLOAD_INVALID");
  const currency = args.required("currency").toUpperCase();
  const providerToken = args.str("provider_token");
  const prices = readPrices(args);
  const totalAmount = prices.reduce((sum, p) => sum + p.amount, 0);
  if (totalAmount <= 0) throw badRequest("total price must be positive");
  if (currency === STARS) {
    const tips = args.int("max_tip_amount", 0) > 0 || args.str("suggested_tip_amounts") !== "";
    if (prices.length !== 1 || providerToken !== "" || tips)
      throw badRequest("STARS_INVOICE_INVALID");
  } else if (providerToken === "") {
    throw badRequest("PAYMENT_PROVIDER_INVALID");
  }
  const markup = readReplyMarkup(args);
  const chat = resolveChat(ctx, args);
  assertCanWrite(ctx, chat);
  const reply = replyTarget(chat, args);
  checkFlood(ctx, chat, "sendInvoice");
  const invoice = { payload, currency, totalAmount, providerToken };
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
        start_parameter: args.str("start_parameter"),
        currency,
        total_amount: totalAmount,
      },
      ...(markup?.inline ? { reply_markup: markup.inline } : {}),
    }),
    invoice,
  );
  return structuredClone(stored.message);
};

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
  charge.refundedAt = Date.now();
  const chat = ctx.state.chats.get(charge.chatId);
  if (chat) {
    postUserMessage(ctx, chat, user.user, {
      refunded_payment: {
        currency: charge.currency,
        total_amount: charge.totalAmount,
        invoice_payload: charge.payload,
        telegram_payment_charge_id: charge.chargeId,
      },
    });
  }
  return true;
};
