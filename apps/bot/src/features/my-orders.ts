import { Composer, InlineKeyboard } from "grammy";
import { DELIVERY_TEXT_LIMIT, type DeliveryService } from "@orderbot/core/delivery";
import type { OrderService } from "@orderbot/core/orders";
import type { BotContext, PrivateButtonContext, PrivateContext } from "../bot/context.ts";
import { callbacks, type OrderMessages, formatMoney } from "@orderbot/conversation";
import { orderCard } from "../format/order-card.ts";
import { formatDate } from "../format/order.ts";
import { alert } from "./support.ts";

const SHOWN = 10;

type MyOrdersDeps = {
  orders: Pick<OrderService, "listForUser" | "getOwn">;
  orderMessages: Pick<OrderMessages, "setCard">;
  /** The codes a digital order received, shown again under its card. */
  delivery?: Pick<DeliveryService, "orderCodes">;
};

/**
 * /orders (and "My orders" in the menu and on every card): the customer's latest orders, each a
 * button that opens its card: items, state, what happens next, and the buttons that still work.
 */
export function myOrdersFeature(deps: MyOrdersDeps): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  const privateChats = feature.chatType("private");
  privateChats.command("orders", (ctx) => replyWithOrders(ctx, deps));
  privateChats.callbackQuery(callbacks.menu.encode({ action: "orders" }), (ctx) =>
    openOrders(ctx, deps),
  );
  privateChats.callbackQuery(callbacks.orderView.pattern, (ctx) => openOrder(ctx, deps));
  return feature;
}

async function replyWithOrders(ctx: PrivateContext, deps: MyOrdersDeps): Promise<void> {
  const { text, keyboard } = await ordersList(ctx, deps);
  await ctx.reply(text, { reply_markup: keyboard });
}

async function openOrders(ctx: PrivateButtonContext, deps: MyOrdersDeps): Promise<void> {
  const { text, keyboard } = await ordersList(ctx, deps);
  await ctx.answerCallbackQuery();
  await ctx.reply(text, { reply_markup: keyboard });
}

/** The customer's latest orders, a line and a button each. */
async function ordersList(ctx: PrivateContext, deps: MyOrdersDeps) {
  const mine = await deps.orders.listForUser(ctx.from.id, SHOWN);
  const keyboard = new InlineKeyboard();
  if (mine.length === 0)
    return {
      text: ctx.t("orders-empty"),
      keyboard: keyboard.text(ctx.t("btn-menu-catalog"), callbacks.catalogPage.encode({ page: 1 })),
    };
  const lines = mine.map((order) =>
    ctx.t("orders-line", {
      id: order.id,
      status: ctx.t(`status-${order.status}`),
      total: formatMoney(order.totalMinor, order.currency),
      date: formatDate(order.createdAt, ctx.locale, ctx.shopTime.zone),
    }),
  );
  for (const order of mine)
    keyboard
      .text(
        ctx.t("btn-open-order", {
          id: order.id,
          status: ctx.t(`status-${order.status}`),
          total: formatMoney(order.totalMinor, order.currency),
        }),
        callbacks.orderView.encode({ orderId: order.id }),
      )
      .row();
  keyboard.text(ctx.t("btn-menu-catalog"), callbacks.catalogPage.encode({ page: 1 }));
  return { text: [ctx.t("orders-title"), ...lines].join("\n"), keyboard };
}

/** An order's card, as a new message, then its codes (if any) in messages of their own. */
async function openOrder(ctx: PrivateButtonContext, deps: MyOrdersDeps) {
  const data = callbacks.orderView.decode(ctx.callbackQuery.data);
  if (!data) return ctx.answerCallbackQuery({ text: ctx.t("button-invalid") });
  const order = await deps.orders.getOwn(data.orderId, ctx.from.id);
  if (!order) return alert(ctx, ctx.t("order-unknown"));
  await ctx.answerCallbackQuery();
  const card = orderCard(ctx, order);
  const sent = await ctx.reply(card.text, { reply_markup: card.keyboard });
  // The newest card is the one kept true when the order changes.
  await deps.orderMessages.setCard(order.id, ctx.chat.id, sent.message_id);
  // In messages of their own: the card is edited as the order moves on, the codes stay.
  const codes = (await deps.delivery?.orderCodes(order.id, ctx.from.id)) ?? [];
  for (const part of codeMessages(codes))
    await ctx.reply(`${ctx.t("order-codes-heading")}\n${part}`);
}

/** Codes one a line, in messages that each stay within Telegram's 4096 characters. */
function codeMessages(codes: string[]): string[] {
  const parts: string[] = [];
  let current = "";
  for (const code of codes) {
    if (current !== "" && current.length + 1 + code.length > DELIVERY_TEXT_LIMIT) {
      parts.push(current);
      current = "";
    }
    current = current === "" ? code : `${current}\n${code}`;
  }
  if (current !== "") parts.push(current);
  return parts;
}
