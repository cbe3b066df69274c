import type { Api } from "grammy";
import type { ClaimedMessage } from "@orderbot/core/outbox";
import { renderTemplate, UnknownTemplateError, type Locale, type Params } from "./templates.ts";

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

/**
 * A notice's buttons (core's NotifyPayload.buttons: a paid order's next step, a card's way back),
 * each labelled by its `label` text in the recipient's language; undefined when it has none.
 */
function buttonsOf(
  value: unknown,
  locale: Locale,
): { text: string; callback_data: string }[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  return value.map((button: unknown) => {
    if (!isRecord(button) || typeof button.label !== "string" || typeof button.data !== "string")
      throw new UnknownTemplateError("button");
    return { text: renderTemplate(button.label, {}, locale), callback_data: button.data };
  });
}

/**
 * Turns an outbox row into its Bot API call. `notify` rows are rendered here, in the recipient's
 * language when the payload names one.
 */
export function toApiCall(message: ClaimedMessage, defaultLocale: Locale): ApiCall {
  const payload = message.payload;
  if (!isRecord(payload))
    throw new InvalidOutboxMessageError(message.id, "payload is not an object");
  if (message.method === "notify") return notifyCall(message, payload, defaultLocale);
  if (message.method === "refundStarPayment") return refundCall(message, payload);
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

/** A `notify` row rendered: a new message, or an order's card edited in place. */
function notifyCall(
  message: ClaimedMessage,
  payload: Record<string, unknown>,
  defaultLocale: Locale,
): ApiCall {
  const template = payload.template;
  const params = isRecord(payload.params) ? (payload.params as Params) : {};
  const locale =
    payload.locale === "zh" || payload.locale === "en" ? payload.locale : defaultLocale;
  if (typeof template !== "string")
    throw new InvalidOutboxMessageError(message.id, "notify without a template");
  try {
    const keyboard = buttonsOf(payload.buttons, locale);
    // An order's card (customers/order-messages.ts): edited in place, with only its way back.
    if (isRecord(payload.edit) && typeof payload.edit.message_id === "number")
      return {
        method: "editMessageText",
        payload: {
          chat_id: chatIdValue(message.chatId),
          message_id: payload.edit.message_id,
          text: renderTemplate(template, params, locale),
          reply_markup: { inline_keyboard: keyboard ? [keyboard] : [] },
        },
      };
    return {
      method: "sendMessage",
      payload: {
        chat_id: chatIdValue(message.chatId),
        text: renderTemplate(template, params, locale),
        ...(keyboard ? { reply_markup: { inline_keyboard: [keyboard] } } : {}),
      },
    };
  } catch (error) {
    if (error instanceof UnknownTemplateError)
      throw new InvalidOutboxMessageError(message.id, error.message, { cause: error });
    throw error;
  }
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
