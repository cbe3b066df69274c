import { Composer } from "grammy";
import type { LanguagePreferences } from "@orderbot/conversation";
import type { BotContext } from "../bot/context.ts";
import { callbacks } from "@orderbot/conversation";
import { languageKeyboard } from "../keyboards/language.ts";

/** /language: pick English or 中文; the choice is remembered per user. */
export function languageFeature(languages: LanguagePreferences): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  const privateChats = feature.chatType("private");

  privateChats.command("language", (ctx) =>
    ctx.reply(ctx.t("language-choose"), { reply_markup: languageKeyboard(ctx.locale) }),
  );

  privateChats.callbackQuery(callbacks.language.pattern, async (ctx) => {
    const choice = callbacks.language.decode(ctx.callbackQuery.data);
    if (!choice) return ctx.answerCallbackQuery({ text: ctx.t("button-invalid") });
    const saved = await languages.set(ctx.from.id, choice.locale);
    ctx.locale = choice.locale;
    ctx.i18n.useLocale(choice.locale);
    await ctx.answerCallbackQuery({
      text: saved ? ctx.t("language-set") : ctx.t("unavailable-nothing-changed"),
    });
    if (saved) await ctx.editMessageText(ctx.t("language-set"));
  });

  return feature;
}
