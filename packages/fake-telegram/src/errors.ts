// Errors in the Bot API's own words. The Bot API server builds every description as
// "<Reason>: <detail>" where the detail keeps MTProto's UPPER_CASE codes as they are and starts
// any other sentence with a lower-case letter; the HTTP status equals error_code.

export interface ResponseParameters {
  retry_after?: number;
  migrate_to_chat_id?: number;
}

/** A Bot API method failed: what the fake answers as `{ ok: false, error_code, description }`. */
export class BotApiError extends Error {
  override readonly name = "BotApiError";

  constructor(
    readonly errorCode: number,
    readonly description: string,
    readonly parameters?: ResponseParameters,
  ) {
    super(`${errorCode} ${description}`);
  }

  toJSON(): {
    ok: false;
    error_code: number;
    description: string;
    parameters?: ResponseParameters;
  } {
    return {
      ok: false,
      error_code: this.errorCode,
      description: this.description,
      ...(this.parameters ? { parameters: this.parameters } : {}),
    };
  }
}

export const badRequest = (detail: string): BotApiError =>
  new BotApiError(400, `Bad Request: ${detail}`);
export const forbidden = (detail: string): BotApiError =>
  new BotApiError(403, `Forbidden: ${detail}`);
export const conflict = (detail: string): BotApiError =>
  new BotApiError(409, `Conflict: ${detail}`);
export const unauthorized = (): BotApiError => new BotApiError(401, "Unauthorized");
export const notFound = (): BotApiError => new BotApiError(404, "Not Found");
export const internalError = (): BotApiError => new BotApiError(500, "Internal Server Error");
export const badGateway = (): BotApiError => new BotApiError(502, "Bad Gateway");
export const tooManyRequests = (retryAfter: number): BotApiError =>
  new BotApiError(429, `Too Many Requests: retry after ${retryAfter}`, { retry_after: retryAfter });

/** Descriptions the fake answers with, for assertions in tests (`expect(err.description).toBe(...)`). */
export const TelegramErrors = {
  BUTTON_DATA_INVALID: "Bad Request: BUTTON_DATA_INVALID",
  BUTTON_URL_INVALID: "Bad Request: BUTTON_URL_INVALID",
  TEXT_BUTTONS_UNALLOWED:
    "Bad Request: can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard",
  REPLY_MARKUP_UNPARSABLE: "Bad Request: can't parse reply keyboard markup JSON object",
  REPLY_MARKUP_TOO_LONG: "Bad Request: reply markup is too long",
  MESSAGE_TEXT_EMPTY: "Bad Request: message text is empty",
  MESSAGE_TOO_LONG: "Bad Request: message is too long",
  MESSAGE_NOT_MODIFIED:
    "Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message",
  MESSAGE_TO_EDIT_NOT_FOUND: "Bad Request: message to edit not found",
  MESSAGE_TO_DELETE_NOT_FOUND: "Bad Request: message to delete not found",
  MESSAGE_CANT_BE_EDITED: "Bad Request: message can't be edited",
  MESSAGE_CANT_BE_DELETED: "Bad Request: message can't be deleted",
  NO_TEXT_TO_EDIT: "Bad Request: there is no text in the message to edit",
  NO_CAPTION_TO_EDIT: "Bad Request: there is no caption in the message to edit",
  NO_MEDIA_TO_EDIT: "Bad Request: there is no media in the message to edit",
  CAPTION_TOO_LONG: "Bad Request: message caption is too long",
  NO_PHOTO: "Bad Request: there is no photo in the request",
  WRONG_FILE_ID: "Bad Request: wrong file identifier/HTTP URL specified",
  URL_NOT_FETCHED: "Bad Request: failed to get HTTP URL content",
  INPUT_MEDIA_UNPARSABLE: "Bad Request: can't parse InputMedia JSON object",
  REPLY_NOT_FOUND: "Bad Request: message to be replied not found",
  QUERY_TOO_OLD:
    "Bad Request: query is too old and response timeout expired or query ID is invalid",
  CALLBACK_ANSWER_TOO_LONG: "Bad Request: MESSAGE_TOO_LONG",
  CHAT_NOT_FOUND: "Bad Request: chat not found",
  CHAT_ID_EMPTY: "Bad Request: chat_id is empty",
  USER_NOT_FOUND: "Bad Request: user not found",
  NO_ADMINS_IN_PRIVATE_CHAT: "Bad Request: there are no administrators in the private chat",
  WRONG_CHAT_ACTION: "Bad Request: wrong parameter action in request",
  INVOICE_PAYLOAD_INVALID: "Bad Request: INVOICE_PAYLOAD_INVALID",
  STARS_INVOICE_INVALID: "Bad Request: STARS_INVOICE_INVALID",
  CURRENCY_TOTAL_AMOUNT_INVALID: "Bad Request: CURRENCY_TOTAL_AMOUNT_INVALID",
  START_PARAM_INVALID: "Bad Request: START_PARAM_INVALID",
  PAYMENT_PROVIDER_INVALID: "Bad Request: PAYMENT_PROVIDER_INVALID",
  PRICES_UNPARSABLE: "Bad Request: can't parse prices JSON object",
  NO_PRICES: "Bad Request: there must be at least one price",
  TOTAL_PRICE_NOT_POSITIVE: "Bad Request: total price must be positive",
  CHARGE_ALREADY_REFUNDED: "Bad Request: CHARGE_ALREADY_REFUNDED",
  CHARGE_ID_INVALID: "Bad Request: CHARGE_ID_INVALID",
  SECRET_TOKEN_INVALID: "Bad Request: secret token contains unallowed characters",
  WEBHOOK_URL_INVALID: "Bad Request: invalid webhook URL specified",
  BOT_BLOCKED: "Forbidden: bot was blocked by the user",
  CANT_INITIATE: "Forbidden: bot can't initiate conversation with a user",
  GET_UPDATES_WHILE_WEBHOOK:
    "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
  GET_UPDATES_TERMINATED:
    "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running",
  NOT_FOUND: "Not Found",
  UNAUTHORIZED: "Unauthorized",
  INTERNAL: "Internal Server Error",
} as const;

/** `parameter "x" is required`, as the Bot API says for a missing required string. */
export const parameterRequired = (name: string): BotApiError =>
  badRequest(`parameter "${name}" is required`);

/** Misuse of the kit from a test (a button that is not there, an invoice already paid...). */
export class FakeTelegramError extends Error {
  override readonly name: string = "FakeTelegramError";
}

/** A simulated user pressed a button that no visible message in the chat has. */
export class ButtonNotFoundError extends FakeTelegramError {
  override readonly name = "ButtonNotFoundError";

  constructor(
    readonly chatId: number,
    readonly wanted: string,
    readonly available: string[],
  ) {
    super(
      `no button ${wanted} in chat ${chatId}; visible buttons: ${available.length ? available.join(", ") : "(none)"}`,
    );
  }
}

/** A wait (for a message, a call, an answer) ran out of time. */
export class WaitTimeoutError extends FakeTelegramError {
  override readonly name = "WaitTimeoutError";

  constructor(
    readonly what: string,
    readonly timeoutMs: number,
    readonly seen: string[] = [],
  ) {
    super(
      `timed out after ${timeoutMs} ms waiting for ${what}` +
        (seen.length ? `; seen meanwhile:\n  ${seen.slice(-10).join("\n  ")}` : ""),
    );
  }
}
