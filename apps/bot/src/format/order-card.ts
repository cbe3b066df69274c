import type { InlineKeyboard } from "grammy";
import type { OrderView } from "@orderbot/core";
import { formatMoney } from "@orderbot/conversation";
import type { BotContext } from "../bot/context.ts";
import { orderKeyboard } from "../keyboards/order.ts";
import { isOpen, orderText } from "./order.ts";

/** An order's card as its customer sees it now: the text and only the buttons that still work. */
export function orderCard(
  ctx: Pick<BotContext, "t" | "locale" | "shopTime">,
  order: OrderView,
): { text: string; keyboard: InlineKeyboard } {
  const total = formatMoney(order.totalMinor, order.currency);
  return {
    text: orderText(ctx.t, order, ctx.locale, ctx.shopTime),
    keyboard: orderKeyboard(ctx.t, { id: order.id, open: isOpen(order), total }),
  };
}
