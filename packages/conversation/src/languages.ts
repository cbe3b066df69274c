import path from "node:path";

/**
 * The shop's words, in Fluent: one folder per language (`en/`, `zh/`), one file per part of the
 * conversation. The bot and the worker read the same files, so a state has one name everywhere.
 */
export const LOCALES_DIR = path.resolve(import.meta.dirname, "../locales");

/** The languages the shop speaks; the first is the fallback. */
export const LOCALES = ["en", "zh"] as const;
export type Locale = (typeof LOCALES)[number];

/** Telegram's language_code ("zh-hans", "en-US", ...) → a language the shop speaks. */
export function localeFromLanguageCode(code: string | undefined): Locale {
  return code?.toLowerCase().startsWith("zh") ? "zh" : "en";
}

export function isLocale(value: unknown): value is Locale {
  return (LOCALES as readonly unknown[]).includes(value);
}
