import { InlineKeyboard } from "grammy";
import { callbacks } from "@orderbot/conversation";
import type { Translate } from "../format/translate.ts";

/** /products: ◀ ▶ to the neighbouring pages (pages from 1); none when everything fits on one. */
export function productsKeyboard(
  t: Translate,
  page: number,
  pages: number,
): InlineKeyboard | undefined {
  if (pages <= 1) return undefined;
  const keyboard = new InlineKeyboard();
  if (page > 1) keyboard.text(t("btn-previous"), callbacks.productsPage.encode({ page: page - 1 }));
  if (page < pages) keyboard.text(t("btn-next"), callbacks.productsPage.encode({ page: page + 1 }));
  return keyboard;
}
