import type { InlineKeyboard } from "grammy";
import type { CartView } from "@orderbot/core/cart";
import { promoCallbacks } from "@orderbot/conversation";
import type { Translate } from "../format/translate.ts";

/** The cart's promo row: "Promo code" without one, "✕ Code SALE10" with one. */
export function addPromoRow(keyboard: InlineKeyboard, t: Translate, cart: CartView): void {
  if (cart.lines.length === 0) return;
  if (cart.promo)
    keyboard
      .text(
        t("btn-promo-remove", { code: cart.promo.code }),
        promoCallbacks.remove.encode({ revision: cart.revision }),
      )
      .row();
  else keyboard.text(t("btn-promo"), promoCallbacks.ask.encode({ revision: cart.revision })).row();
}
