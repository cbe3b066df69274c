import { InlineKeyboard } from "grammy";
import { callbacks } from "@orderbot/conversation";
import type { Translate } from "../format/translate.ts";

export interface ProductCardState {
  productId: number;
  qty: number;
  /** The most the card lets a user pick: the stock, capped by the per-line limit. */
  maxQty: number;
  /** The listing the card was opened from, for the way back (category 0: products in no category). */
  categoryId: number;
  page: number;
  total: string;
  /** Units of this product already in the customer's cart. */
  inCart: number;
  /** Units in the whole cart (its button shows them). */
  cartUnits: number;
  /** Units per order line: the cart's line cannot grow past it. */
  maxUnitsPerLine: number;
}

/**
 * − qty +, Add to cart, Order (this product alone), the cart, and back to the listing. A − or +
 * that would leave 1..max is not drawn.
 */
export function productKeyboard(t: Translate, s: ProductCardState): InlineKeyboard {
  const from = { categoryId: s.categoryId, page: s.page };
  const keyboard = new InlineKeyboard();
  if (s.qty > 1)
    keyboard.text(
      "−",
      callbacks.product.encode({ productId: s.productId, qty: s.qty - 1, ...from }),
    );
  keyboard.text(
    String(s.qty),
    callbacks.product.encode({ productId: s.productId, qty: s.qty, ...from }),
  );
  if (s.qty < s.maxQty)
    keyboard.text(
      "+",
      callbacks.product.encode({ productId: s.productId, qty: s.qty + 1, ...from }),
    );
  keyboard.row();
  if (s.maxQty >= 1) {
    const target = s.inCart + s.qty;
    if (target <= Math.min(s.maxUnitsPerLine, 99))
      keyboard
        .text(
          t("btn-cart-add", { qty: s.qty }),
          callbacks.cartAdd.encode({ productId: s.productId, qty: target, ...from }),
        )
        .row();
    keyboard
      .text(
        t("btn-order", { qty: s.qty, total: s.total }),
        callbacks.order.encode({ productId: s.productId, qty: s.qty, ...from }),
      )
      .row();
  }
  if (s.cartUnits > 0)
    keyboard.text(t("btn-cart", { units: s.cartUnits }), callbacks.menu.encode({ action: "cart" }));
  keyboard.text(t("btn-back-list"), callbacks.category.encode(from));
  return keyboard;
}
