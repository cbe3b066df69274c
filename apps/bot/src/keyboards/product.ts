import { InlineKeyboard } from "grammy";
import { callbacks } from "../callbacks/index.ts";
import type { Translate } from "../format/translate.ts";

export interface ProductCardState {
  productId: number;
  qty: number;
  /** The most the card lets a user pick: the stock, capped by the per-line limit. */
  maxQty: number;
  /** The catalog page the card was opened from, for the way back. */
  page: number;
  total: string;
}

/** − qty +, Order, and back to the catalog. A − or + that would leave 1..max is not drawn. */
export function productKeyboard(t: Translate, s: ProductCardState): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  if (s.qty > 1)
    keyboard.text(
      "−",
      callbacks.product.encode({ productId: s.productId, qty: s.qty - 1, page: s.page }),
    );
  keyboard.text(
    String(s.qty),
    callbacks.product.encode({ productId: s.productId, qty: s.qty, page: s.page }),
  );
  if (s.qty < s.maxQty)
    keyboard.text(
      "+",
      callbacks.product.encode({ productId: s.productId, qty: s.qty + 1, page: s.page }),
    );
  keyboard.row();
  if (s.maxQty >= 1)
    keyboard
      .text(
        t("btn-order", { qty: s.qty, total: s.total }),
        callbacks.order.encode({ productId: s.productId, qty: s.qty, page: s.page }),
      )
      .row();
  keyboard.text(t("btn-back"), callbacks.catalogPage.encode({ page: s.page }));
  return keyboard;
}
