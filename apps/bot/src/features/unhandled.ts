import { Composer } from "grammy";
import type { BotContext } from "../bot/context.ts";

/**
 * Last in line: whatever no feature took. Private messages get a hint; a shared contact is
 * acknowledged and dropped (the shop never needs a phone number, and never logs one); a button
 * nobody handles is answered as no longer valid. Group chatter is ignored.
 */
export function unhandledFeature(): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  const privateChats = feature.chatType("private");
  privateChats.on("message:contact", (ctx) => ctx.reply(ctx.t("contact-not-needed")));
  privateChats.on("message", (ctx) => ctx.reply(ctx.t("unknown-message")));
  feature.on("callback_query", (ctx) => ctx.answerCallbackQuery({ text: ctx.t("button-invalid") }));
  return feature;
}
