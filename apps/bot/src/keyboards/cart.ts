import { InlineKeyboard } from "grammy";
import type { CartView } from "@orderbot/core/cart";
import { cutText } from "@orderbot/platform";
import { callbacks } from "@orderbot/conversation";
import type { Locale, Translate } from "../format/translate.ts";
import { addPromoRow } from "./promo.ts";

const LABEL_MAX = 18;

function shortLabel(title: string): string {
  return cutText(title, LABEL_MAX, "…");
}

/**
 * One row per line: − (title × qty) + ✕, with absolute quantities; then Checkout (the revision the
 * cart was drawn at), Empty, and back to the catalog.
 */
export function cartKeyboard(
  t: Translate,
  cart: CartView,
  locale: Locale,
  options: { maxUnitsPerLine: number; total: string },
): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  for (const line of cart.lines) {
    const { product, quantity } = line;
    const set = (q: number) => callbacks.cartSet.encode({ productId: product.id, quantity: q });
    keyboard.text("−", set(quantity - 1));
    keyboard.text(
      `${shortLabel(product.title[locale])} ×${quantity}`,
      callbacks.product.encode({
        productId: product.id,
        qty: 1,
        categoryId: product.categoryId ?? 0,
        page: 1,
      }),
    );
    if (quantity < Math.min(options.maxUnitsPerLine, product.stock))
      keyboard.text("+", set(quantity + 1));
    keyboard.text("✕", set(0)).row();
  }
  if (cart.lines.length > 0)
    keyboard
      .text(
        t("btn-checkout", { total: options.total }),
        callbacks.checkout.encode({ revision: cart.revision }),
      )
      .row()
      .text(t("btn-cart-empty"), callbacks.cartEmpty.encode({ revision: cart.revision }))
      .row();
  addPromoRow(keyboard, t, cart);
  return keyboard.text(t("btn-menu-catalog"), callbacks.catalogPage.encode({ page: 1 }));
}
