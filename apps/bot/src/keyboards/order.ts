import { InlineKeyboard } from "grammy";
import { callbacks, CARD_WAY_BACK } from "@orderbot/conversation";
import type { Translate } from "../format/translate.ts";

/**
 * An order card's buttons: Pay and Cancel while the order is open (only then do they work), and
 * always a way back to the customer's orders and to the catalog: the same buttons the worker puts
 * under a card it edits.
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
  for (const button of CARD_WAY_BACK) keyboard.text(t(button.label), button.data);
  return keyboard;
}
