import { Composer } from "grammy";
import type { BotContext } from "../bot/context.ts";

/** /start and /help in private chats. */
export function startFeature(): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  const privateChats = feature.chatType("private");
  privateChats.command("start", (ctx) =>
    ctx.reply(ctx.t("welcome", { name: ctx.from.first_name })),
  );
  privateChats.command("help", (ctx) => ctx.reply(ctx.t("help")));
  return feature;
}
