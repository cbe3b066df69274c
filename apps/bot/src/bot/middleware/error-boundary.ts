import { GrammyError, type BotError } from "grammy";
import type { BotContext } from "../context.ts";

/**
 * Telegram refused the call for good: a bad request (a message that no longer exists, an edit
 * that changes nothing) or a forbidden one (the user blocked the bot). Running the update again
 * would fail the same way, so it is logged and the update counts as handled.
 */
export function isPermanentTelegramError(error: unknown): error is GrammyError {
  return error instanceof GrammyError && (error.error_code === 400 || error.error_code === 403);
}

/**
 * Wraps every feature. Permanent Telegram refusals end the update quietly. Anything else (the
 * database or Telegram unreachable, a bug) is rethrown: the webhook answers 500 and Telegram
 * re-delivers the update later, which is safe because every handler is idempotent. The pipeline
 * logs it once, with the update id. A pressed button is answered with a generic apology first;
 * internal error text is never shown.
 */
export async function handleFeatureError(error: BotError<BotContext>): Promise<void> {
  const { ctx } = error;
  const cause = error.error;
  if (isPermanentTelegramError(cause)) {
    ctx.logger.warn(
      { method: cause.method, code: cause.error_code, description: cause.description },
      "Telegram refused a call; not retried",
    );
    return;
  }
  if (ctx.callbackQuery)
    await ctx.answerCallbackQuery({ text: ctx.t("error-generic") }).catch(() => undefined);
  throw cause;
}
