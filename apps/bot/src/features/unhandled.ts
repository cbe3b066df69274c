import { Composer } from "grammy";
import type { BotContext } from "../bot/context.ts";
import { askShopKeyboard } from "../keyboards/menu.ts";

/**
 * Last in line: whatever no feature took. A private message gets "did not understand", as a reply
 * to it, with "Ask the shop" (which passes that message on to the operators) and the main menu;
 * a shared contact is acknowledged and dropped (the shop never needs a phone number, and never
 * logs one); a button nobody handles is answered as no longer valid. Group chatter is ignored.
 */
export function unhandledFeature(): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  const privateChats = feature.chatType("private");
  privateChats.on("message:contact", (ctx) => ctx.reply(ctx.t("contact-not-needed")));
  privateChats.on("message:text", (ctx) =>
    ctx.reply(ctx.t("unknown-message"), {
      reply_markup: askShopKeyboard(ctx.t),
      reply_parameters: { message_id: ctx.message.message_id },
    }),
  );
  privateChats.on("message", (ctx) =>
    ctx.reply(ctx.t("unknown-message-not-text"), { reply_markup: askShopKeyboard(ctx.t) }),
  );
  feature.on("callback_query", (ctx) => ctx.answerCallbackQuery({ text: ctx.t("button-invalid") }));
  return feature;
}
