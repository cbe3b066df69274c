import { Composer } from "grammy";
import type { OrderService } from "@orderbot/core/orders";
import type { BotContext } from "../bot/context.ts";
import { callbacks, type OrderMessages } from "@orderbot/conversation";
import { orderCard } from "../format/order-card.ts";
import { mainMenuKeyboard } from "../keyboards/menu.ts";
import { orderIdOfStartParameter } from "./pay-link.ts";

/**
 * /start and /help in private chats, each with the main menu's buttons. /start pay-<order> is the
 * deep link of a forwarded invoice: it opens the order's card (with Pay while it is open) for its
 * owner, and only for them.
 */
export function startFeature(deps: {
  orders: Pick<OrderService, "getOwn">;
  orderMessages: Pick<OrderMessages, "setCard">;
}): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  const privateChats = feature.chatType("private");
  privateChats.command("start", async (ctx) => {
    const orderId = orderIdOfStartParameter(ctx.match);
    if (orderId === null)
      return ctx.reply(ctx.t("welcome", { name: ctx.from.first_name }), {
        reply_markup: mainMenuKeyboard(ctx.t),
      });
    // Alike for an order that does not exist and someone else's: the link tells nothing about it.
    const order = await deps.orders.getOwn(orderId, ctx.from.id);
    if (!order) return ctx.reply(ctx.t("order-link-unknown"));
    const card = orderCard(ctx, order);
    const sent = await ctx.reply(card.text, { reply_markup: card.keyboard });
    await deps.orderMessages.setCard(order.id, ctx.chat.id, sent.message_id);
  });
  privateChats.command("help", (ctx) =>
    ctx.reply(ctx.t("help"), { reply_markup: mainMenuKeyboard(ctx.t) }),
  );
  privateChats.callbackQuery(callbacks.menu.encode({ action: "help" }), async (ctx) => {
    await ctx.answerCallbackQuery();
    await ctx.reply(ctx.t("help"), { reply_markup: mainMenuKeyboard(ctx.t) });
  });
  return feature;
}
