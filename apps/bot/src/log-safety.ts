import { BotError, GrammyError, HttpError } from "grammy";

/**
 * An error as it may be logged. grammY's errors carry too much for a log line: a BotError holds
 * the whole context (the update, with whatever the user sent, and the API client), a GrammyError
 * the call's payload (a provider token for sendInvoice), and an HttpError the fetch failure, whose
 * message includes the request URL with the bot token in it. Only what explains the failure stays.
 */
export function loggableError(error: unknown): unknown {
  const cause = error instanceof BotError ? error.error : error;
  if (cause instanceof GrammyError) {
    return {
      type: "GrammyError",
      method: cause.method,
      code: cause.error_code,
      description: cause.description,
    };
  }
  if (cause instanceof HttpError) return { type: "HttpError", message: cause.message };
  return cause;
}
