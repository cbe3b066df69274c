import { Composer } from "grammy";
import { formatMoney, type OrderService } from "@orderbot/core";
import type { BotContext } from "../bot/context.ts";
import { isOpen, orderText } from "../format/order.ts";
import { orderKeyboard } from "../keyboards/order.ts";
import { orderIdOfStartParameter } from "./pay-link.ts";

/**
 * /start and /help in private chats. /start pay-<order> is the deep link of a forwarded invoice:
 * it opens the order's card (with Pay while it is open) for its owner, and only for them.
 */
export function startFeature(orders: Pick<OrderService, "get">): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  const privateChats = feature.chatType("private");
  privateChats.command("start", async (ctx) => {
    const orderId = orderIdOfStartParameter(ctx.match);
    if (orderId === null) return ctx.reply(ctx.t("welcome", { name: ctx.from.first_name }));
    const order = await orders.get(orderId);
    if (!order) return ctx.reply(ctx.t("order-link-not-found"));
    if (order.userId !== BigInt(ctx.from.id)) return ctx.reply(ctx.t("order-link-not-yours"));
    const total = formatMoney(order.totalMinor, order.currency);
    return ctx.reply(orderText(ctx.t, order, ctx.locale), {
      reply_markup: orderKeyboard(ctx.t, { id: order.id, open: isOpen(order), total }),
    });
  });
  privateChats.command("help", (ctx) => ctx.reply(ctx.t("help")));
  return feature;
}
