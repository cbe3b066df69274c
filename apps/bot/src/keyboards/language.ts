import { InlineKeyboard } from "grammy";
import { callbacks } from "@orderbot/conversation";
import { LOCALES, type Locale } from "../format/translate.ts";

/** Each language named in itself, so anyone can find theirs. */
const NAMES: Record<Locale, string> = { en: "English", zh: "中文" };

export function languageKeyboard(current: string): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  for (const locale of LOCALES)
    keyboard.text(
      `${locale === current ? "✓ " : ""}${NAMES[locale]}`,
      callbacks.language.encode({ locale }),
    );
  return keyboard;
}
