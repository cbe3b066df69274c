import type { Api } from "grammy";
import type { ClaimedMessage } from "@orderbot/core/outbox";
import { cutText } from "@orderbot/platform";
import {
  CARD_TEMPLATE,
  noticeOfEvent,
  renderNotice,
  UnknownTemplateError,
  type Locale,
  type NoticeFacts,
  type OrderMessageIds,
  type Params,
} from "@orderbot/conversation";

/** Telegram's longest message text. */
const MESSAGE_TEXT_LIMIT = 4096;

/** The one Bot API call a relay makes per message. */
export interface ApiCall {
  method: string;
  payload: Record<string, unknown>;
}

/** Calls any Bot API method by name: the outbox stores the method as data. */
export type CallApi = (call: ApiCall, signal?: AbortSignal) => Promise<unknown>;

export function grammyCaller(api: Api): CallApi {
  const raw = api.raw as unknown as Record<
    string,
    (payload: Record<string, unknown>, signal?: AbortSignal) => Promise<unknown>
  >;
  return (call, signal) => raw[call.method]!(call.payload, signal);
}

/** Methods whose payload goes to the Bot API as it is (chat_id added from the row). */
const CHAT_METHODS = new Set([
  "sendMessage",
  "editMessageText",
  "editMessageReplyMarkup",
  "deleteMessage",
]);

/** A row that cannot become a Bot API call: retrying cannot help, so it goes to the dead letters. */
export class InvalidOutboxMessageError extends Error {
  override name = "InvalidOutboxMessageError";
  constructor(
    readonly messageId: number,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(`outbox message #${messageId}: ${reason}`, options);
  }
}

/** Telegram ids stay below 2^52, so a JSON number carries them exactly. */
const chatIdValue = (chatId: bigint): number => Number(chatId);

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** What a row is rendered with, read when it is sent: the recipient's language, the order. */
export interface RenderContext {
  locale: Locale;
  facts?: NoticeFacts;
  /** The messages showing the row's order (an `order-card` or `voidInvoice` row); null: none. */
  messages?: OrderMessageIds | null;
}

/**
 * Turns an outbox row into its Bot API call; `notify` rows are rendered here
 * (@orderbot/conversation). Null: nothing to send (no card shows the order, no invoice is live).
 */
export function toApiCall(message: ClaimedMessage, context: RenderContext): ApiCall | null {
  const payload = message.payload;
  if (!isRecord(payload))
    throw new InvalidOutboxMessageError(message.id, "payload is not an object");
  if (message.method === "notify" || message.method === "event")
    return notifyCall(message, context);
  if (message.method === "refundStarPayment") return refundCall(message, payload);
  if (message.method === "voidInvoice") return voidInvoiceCall(message, context);
  if (CHAT_METHODS.has(message.method)) {
    return {
      method: message.method,
      payload: { ...payload, chat_id: chatIdValue(message.chatId) },
    };
  }
  throw new InvalidOutboxMessageError(
    message.id,
    `method ${message.method} is not one the relay sends`,
  );
}

interface Notice {
  template: string;
  params: Params;
  facts?: NoticeFacts;
}

/**
 * A `notify` row's template and parameters, or the notice an event's delivery is told by; null
 * when it is neither. An event that is not of a known kind throws (retrying cannot help).
 */
export function noticeOf(message: ClaimedMessage): Notice | null {
  const payload = message.payload;
  if (!isRecord(payload)) return null;
  if (message.method === "event") {
    try {
      return noticeOfEvent(payload);
    } catch (error) {
      throw new InvalidOutboxMessageError(message.id, "not an event of a known kind", {
        cause: error,
      });
    }
  }
  if (message.method !== "notify" || typeof payload.template !== "string") return null;
  const params = isRecord(payload.params) ? (payload.params as Params) : {};
  return { template: payload.template, params };
}

/** A `notify` row rendered: a new message, or an order's card edited in place. */
function notifyCall(message: ClaimedMessage, context: RenderContext): ApiCall | null {
  const notice = noticeOf(message);
  if (!notice) throw new InvalidOutboxMessageError(message.id, "notify without a template");
  // An order's card is edited in place, with only its way back: nothing to do when none shows it.
  const isCard = notice.template === CARD_TEMPLATE;
  const card = context.messages?.cardMessageId;
  if (isCard && !card) return null;
  try {
    const facts = { ...context.facts, ...notice.facts };
    const rendered = renderNotice(notice.template, notice.params, context.locale, facts);
    // The last resort: a text Telegram refuses as too long would never arrive.
    const text = cutText(rendered.text, MESSAGE_TEXT_LIMIT, "…");
    const buttons = rendered.buttons;
    const keyboard = { inline_keyboard: buttons ? [buttons] : [] };
    if (isCard && card)
      return {
        method: "editMessageText",
        payload: {
          chat_id: chatIdValue(message.chatId),
          message_id: card,
          text,
          reply_markup: keyboard,
        },
      };
    return {
      method: "sendMessage",
      payload: {
        chat_id: chatIdValue(message.chatId),
        text,
        ...(buttons ? { reply_markup: keyboard } : {}),
      },
    };
  } catch (error) {
    // No text for it, or ids its buttons' codecs refuse: retrying cannot help.
    if (error instanceof UnknownTemplateError || error instanceof RangeError)
      throw new InvalidOutboxMessageError(message.id, error.message, { cause: error });
    throw error;
  }
}

/** The order's live invoice deleted, while Telegram still allows it (48 hours). */
function voidInvoiceCall(message: ClaimedMessage, context: RenderContext): ApiCall | null {
  const invoice = context.messages?.invoiceMessageId;
  if (!invoice || !context.messages?.invoiceDeletable) return null;
  return {
    method: "deleteMessage",
    payload: { chat_id: chatIdValue(message.chatId), message_id: invoice },
  };
}

/** The order a row is about (`params.orderId`, or a `voidInvoice` row's `orderId`). */
export function orderOf(message: ClaimedMessage): string | undefined {
  const payload = message.payload;
  if (!isRecord(payload)) return undefined;
  const id =
    message.method === "notify" && isRecord(payload.params)
      ? payload.params.orderId
      : payload.orderId;
  return typeof id === "string" && id !== "" ? id : undefined;
}

function refundCall(message: ClaimedMessage, payload: Record<string, unknown>): ApiCall {
  if (
    typeof payload.telegram_payment_charge_id !== "string" ||
    typeof payload.user_id !== "number"
  ) {
    throw new InvalidOutboxMessageError(
      message.id,
      "refundStarPayment needs user_id and telegram_payment_charge_id",
    );
  }
  return {
    method: "refundStarPayment",
    payload: {
      user_id: payload.user_id,
      telegram_payment_charge_id: payload.telegram_payment_charge_id,
    },
  };
}
