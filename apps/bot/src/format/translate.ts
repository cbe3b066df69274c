import type { TranslateFunction } from "@grammyjs/i18n";

/** `ctx.t`: a message of the current user's language, by key. */
export type Translate = TranslateFunction;

export { isLocale, localeFromLanguageCode, LOCALES, type Locale } from "@orderbot/conversation";
