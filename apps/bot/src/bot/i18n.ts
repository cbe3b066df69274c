import { I18n } from "@grammyjs/i18n";
import type { MiddlewareFn } from "grammy";
import { LOCALES_DIR, type LanguagePreferences } from "@orderbot/conversation";
import { isLocale, localeFromLanguageCode, type Locale } from "../format/translate.ts";
import type { BotContext } from "./context.ts";

export { LOCALES_DIR };

/**
 * Translations from @orderbot/conversation (one folder per language). The language is the one stored
 * with the customer (picked with /language, or recorded at their first message), else the one
 * Telegram reports for them (zh for any Chinese variant), else English.
 */
export function createI18n(): I18n<BotContext> {
  return new I18n<BotContext>({
    defaultLocale: "en",
    directory: LOCALES_DIR,
    // No Unicode isolation marks around values: they show up as stray characters in some clients.
    fluentBundleOptions: { useIsolating: false },
    localeNegotiator: (ctx) => ctx.locale,
  });
}

/** Decides `ctx.locale` before the translations are bound to the context. */
export function negotiateLocale(languages: LanguagePreferences): MiddlewareFn<BotContext> {
  return async (ctx, next) => {
    const reported = localeFromLanguageCode(ctx.from?.language_code);
    if (!ctx.from) ctx.locale = reported;
    // A customer's first private message records the language they use, so that the worker's
    // notices to them (expiry, refunds, answers) are in it too.
    else if (ctx.chat?.type === "private")
      ctx.locale = await languages.remember(ctx.from.id, reported);
    else {
      const chosen = await languages.get(ctx.from.id);
      ctx.locale = isLocale(chosen) ? chosen : reported;
    }
    await next();
  };
}

export type { Locale };
