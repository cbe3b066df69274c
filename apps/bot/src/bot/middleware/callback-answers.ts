import type { MiddlewareFn } from "grammy";
import type { BotContext } from "../context.ts";

/**
 * Every callback query gets exactly one answer, so no client is left with a spinner:
 * - a handler that forgot to answer is covered by an empty answer after it returns;
 * - a second answer in the same update is skipped;
 * - an answer Telegram refuses (the query is too old, or an earlier delivery of this update
 *   already answered it) is not an error: the rest of the handler still runs.
 */
export function answerEveryCallbackQuery(): MiddlewareFn<BotContext> {
  return async (ctx, next) => {
    if (!ctx.callbackQuery) return next();
    let answered = false;
    ctx.api.config.use(async (prev, method, payload, signal) => {
      if (method !== "answerCallbackQuery") return prev(method, payload, signal);
      if (answered) return { ok: true, result: true as never };
      answered = true;
      const response = await prev(method, payload, signal);
      if (response.ok || response.error_code !== 400) return response;
      ctx.logger.debug(
        { description: response.description },
        "callback query could not be answered",
      );
      return { ok: true, result: true as never };
    });
    try {
      await next();
    } finally {
      if (!answered)
        await ctx
          .answerCallbackQuery()
          .catch((error: unknown) =>
            ctx.logger.warn({ err: error }, "callback query left unanswered"),
          );
    }
  };
}
