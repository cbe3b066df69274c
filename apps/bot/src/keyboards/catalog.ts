import { InlineKeyboard } from "grammy";
import { callbacks } from "../callbacks/index.ts";
import type { Translate } from "../format/translate.ts";

export interface CatalogEntry {
  productId: number;
  label: string;
}

/** One button per product (opening its card with 1 unit), then ◀ ▶ when there are other pages (pages from 1). */
export function catalogKeyboard(
  t: Translate,
  entries: readonly CatalogEntry[],
  page: number,
  pages: number,
): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  for (const entry of entries)
    keyboard
      .text(entry.label, callbacks.product.encode({ productId: entry.productId, qty: 1, page }))
      .row();
  if (page > 1) keyboard.text(t("btn-previous"), callbacks.catalogPage.encode({ page: page - 1 }));
  if (page < pages) keyboard.text(t("btn-next"), callbacks.catalogPage.encode({ page: page + 1 }));
  return keyboard;
}
