import { InlineKeyboard } from "grammy";
import { callbacks } from "../callbacks/index.ts";
import type { Translate } from "../format/translate.ts";

/**
 * An order card's buttons: Pay and Cancel while the order is open (only then do they work), and
 * always a way back to the customer's orders and to the catalog.
 */
export function orderKeyboard(
  t: Translate,
  order: { id: string; open: boolean; total: string },
): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  if (order.open)
    keyboard
      .text(t("btn-pay", { total: order.total }), callbacks.pay.encode({ orderId: order.id }))
      .text(t("btn-cancel"), callbacks.cancel.encode({ orderId: order.id }))
      .row();
  return keyboard
    .text(t("btn-my-orders"), callbacks.menu.encode({ action: "orders" }))
    .text(t("btn-menu-catalog"), callbacks.catalogPage.encode({ page: 1 }));
}
