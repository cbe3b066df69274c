import { Composer, InlineKeyboard } from "grammy";
import {
  formatMoney,
  ORDER_STATUSES,
  type OrderService,
  type OrderView,
  type PaymentService,
} from "@orderbot/core";
import type { BotContext } from "../../bot/context.ts";
import { callbacks } from "../../callbacks/index.ts";
import { formatDate, formatTime, itemLines, maskedCustomer } from "../../format/order.ts";
import { actorOf, refundersOnly, respond } from "./guard.ts";

const SHOWN = 20;

function arg(ctx: BotContext): string {
  return typeof ctx.match === "string" ? ctx.match.trim() : "";
}

function orderLine(ctx: BotContext, order: OrderView): string {
  return ctx.t("op-orders-line", {
    id: order.id,
    status: ctx.t(`status-${order.status}`),
    total: formatMoney(order.totalMinor, order.currency),
    date: formatDate(order.createdAt, ctx.locale),
  });
}

/**
 * /orders [STATUS], /order ID and /refund ID, for the operator group's admins. /order masks the
 * customer's id (every group member reads the reply); its button shows the id to the admin who
 * presses it, in a dialog nobody else sees, and the log records who asked (masked).
 */
export function operatorOrdersFeature(deps: {
  orders: OrderService;
  payments: PaymentService;
  ownerIds: readonly bigint[];
  mask: (id: bigint | number) => string;
}): Composer<BotContext> {
  const feature = new Composer<BotContext>();

  feature.command("orders", async (ctx) => {
    const wanted = arg(ctx).toUpperCase();
    const status = ORDER_STATUSES.find((s) => s === wanted);
    if (wanted && !status)
      return respond(ctx, ctx.t("op-orders-usage", { statuses: ORDER_STATUSES.join("|") }));
    const orders = await deps.orders.list({ ...(status ? { status } : {}), limit: SHOWN });
    if (orders.length === 0) return respond(ctx, ctx.t("op-orders-empty"));
    const title = ctx.t("op-orders-title", {
      status: status ? ` (${ctx.t(`status-${status}`)})` : "",
    });
    await ctx.reply([title, ...orders.map((o) => orderLine(ctx, o))].join("\n"));
  });

  feature.command("order", async (ctx) => {
    const id = arg(ctx).toUpperCase();
    if (!id) return respond(ctx, ctx.t("op-order-usage"));
    const order = await deps.orders.get(id);
    if (!order) return respond(ctx, ctx.t("order-not-found"));
    await ctx.reply(
      ctx.t("op-order-detail", {
        id: order.id,
        status: ctx.t(`status-${order.status}`),
        customer: maskedCustomer(order.userId),
        items: itemLines(ctx.t, order, ctx.locale),
        total: formatMoney(order.totalMinor, order.currency),
        created: `${formatDate(order.createdAt, ctx.locale)} ${formatTime(order.createdAt, ctx.locale)}`,
        expires: formatTime(order.expiresAt, ctx.locale),
      }),
      {
        reply_markup: new InlineKeyboard().text(
          ctx.t("btn-show-customer"),
          callbacks.customerId.encode({ orderId: order.id }),
        ),
      },
    );
  });

  feature.callbackQuery(callbacks.customerId.pattern, async (ctx) => {
    const data = callbacks.customerId.decode(ctx.callbackQuery.data);
    if (!data) return ctx.answerCallbackQuery({ text: ctx.t("button-invalid") });
    const order = await deps.orders.get(data.orderId);
    if (!order) return respond(ctx, ctx.t("order-not-found"));
    ctx.logger.info(
      { order: order.id, by: deps.mask(actorOf(ctx)) },
      "operator revealed a customer id",
    );
    await ctx.answerCallbackQuery({
      text: ctx.t("op-order-customer-id", { id: order.id, customer: String(order.userId) }),
      show_alert: true,
    });
  });

  feature.command("refund", async (ctx) => {
    const id = arg(ctx).toUpperCase();
    if (!id) return respond(ctx, ctx.t("op-refund-usage"));
    if (!(await refundersOnly(ctx, deps.ownerIds))) return;
    const result = await deps.payments.refundOrder(id, actorOf(ctx));
    switch (result.status) {
      case "ok":
        await respond(ctx, ctx.t("op-refund-ok", { id }));
        break;
      case "conflict":
        await respond(
          ctx,
          ctx.t("op-refund-not-paid", { id, status: ctx.t(`status-${result.current}`) }),
        );
        break;
      case "not-found":
      case "invalid":
        await respond(ctx, ctx.t("order-not-found"));
        break;
      case "busy":
        await respond(ctx, ctx.t("op-busy"));
        break;
      case "unavailable":
        await respond(ctx, ctx.t("op-unavailable"));
        break;
    }
  });

  return feature;
}
