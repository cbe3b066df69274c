import type { MiddlewareFn } from "grammy";
import type { Logger } from "@orderbot/platform";
import type { BotContext } from "../context.ts";

/** Gives every handler a logger whose lines carry the update id (and nothing personal). */
export function updateLogger(logger: Logger): MiddlewareFn<BotContext> {
  return async (ctx, next) => {
    ctx.logger = logger.child({ updateId: ctx.update.update_id });
    await next();
  };
}
