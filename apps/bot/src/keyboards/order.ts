import { InlineKeyboard } from "grammy";
import { callbacks } from "../callbacks/index.ts";
import type { Translate } from "../format/translate.ts";

/** Pay and Cancel for an open order; nothing for an order that can no longer be paid. */
export function orderKeyboard(
  t: Translate,
  order: { id: string; open: boolean; total: string },
): InlineKeyboard | undefined {
  if (!order.open) return undefined;
  return new InlineKeyboard()
    .text(t("btn-pay", { total: order.total }), callbacks.pay.encode({ orderId: order.id }))
    .text(t("btn-cancel"), callbacks.cancel.encode({ orderId: order.id }));
}
