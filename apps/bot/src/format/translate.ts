import type { TranslateFunction } from "@grammyjs/i18n";

/** `ctx.t`: a message of the current user's language, by key. */
export type Translate = TranslateFunction;

/** The languages the bot speaks; the first is the fallback. */
export const LOCALES = ["en", "zh"] as const;
export type Locale = (typeof LOCALES)[number];

/** Telegram's language_code ("zh-hans", "en-US", ...) → a language the bot speaks. */
export function localeFromLanguageCode(code: string | undefined): Locale {
  return code?.toLowerCase().startsWith("zh") ? "zh" : "en";
}

export function isLocale(value: unknown): value is Locale {
  return (LOCALES as readonly unknown[]).includes(value);
}
