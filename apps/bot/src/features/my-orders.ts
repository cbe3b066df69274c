import { Composer, InlineKeyboard } from "grammy";
import { formatMoney, type OrderService } from "@orderbot/core";
import type { BotContext } from "../bot/context.ts";
import { callbacks } from "../callbacks/index.ts";
import { formatDate, isOpen } from "../format/order.ts";

const SHOWN = 10;

/** /orders in a private chat: the user's latest orders and their states; open ones can be paid or cancelled. */
export function myOrdersFeature(orders: OrderService): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  const privateChats = feature.chatType("private");

  privateChats.command("orders", async (ctx) => {
    const mine = await orders.listForUser(ctx.from.id, SHOWN);
    if (mine.length === 0) return ctx.reply(ctx.t("orders-empty"));
    const lines = mine.map((order) =>
      ctx.t("orders-line", {
        id: order.id,
        status: ctx.t(`status-${order.status}`),
        total: formatMoney(order.totalMinor, order.currency),
        date: formatDate(order.createdAt, ctx.locale),
      }),
    );
    const keyboard = new InlineKeyboard();
    for (const order of mine.filter(isOpen)) {
      const total = formatMoney(order.totalMinor, order.currency);
      keyboard
        .text(
          `${order.id}: ${ctx.t("btn-pay", { total })}`,
          callbacks.pay.encode({ orderId: order.id }),
        )
        .text(ctx.t("btn-cancel"), callbacks.cancel.encode({ orderId: order.id }))
        .row();
    }
    await ctx.reply([ctx.t("orders-title"), ...lines].join("\n"), { reply_markup: keyboard });
  });

  return feature;
}
