import { I18n } from "@grammyjs/i18n";
import type { MiddlewareFn } from "grammy";
import type { LanguagePreferences } from "@orderbot/core";
import { LOCALES_DIR } from "@orderbot/locales";
import { isLocale, localeFromLanguageCode, type Locale } from "../format/translate.ts";
import type { BotContext } from "./context.ts";

export { LOCALES_DIR };

/**
 * Translations from @orderbot/locales (one folder per language). The language is the one the user picked with /language,
 * else the one Telegram reports for them (zh for any Chinese variant), else English.
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
    const chosen = ctx.from ? await languages.get(ctx.from.id) : null;
    ctx.locale = isLocale(chosen) ? chosen : localeFromLanguageCode(ctx.from?.language_code);
    await next();
  };
}

export type { Locale };
