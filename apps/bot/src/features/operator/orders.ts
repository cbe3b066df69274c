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
import { timelineText } from "../../format/timeline.ts";
import { nextStepKeyboard } from "./fulfilment.ts";
import { actorOf, respond } from "./guard.ts";
import { requireRight } from "./rights.ts";
import { shippingBlock, withShowPhone } from "./shipping.ts";
import type { ShippingOption } from "@orderbot/core";

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
  /** SHIPPING_OPTIONS: a physical order's option by its title. */
  shippingOptions?: readonly ShippingOption[];
}): Composer<BotContext> {
  const feature = new Composer<BotContext>();

  feature.command("orders", async (ctx) => {
    const wanted = arg(ctx).toUpperCase();
    const status = ORDER_STATUSES.find((s) => s === wanted);
    if (wanted && !status)
      return respond(
        ctx,
        ctx.t("op-orders-usage", {
          statuses: ORDER_STATUSES.map((s) => `${s.toLowerCase()} (${ctx.t(`status-${s}`)})`).join(
            ", ",
          ),
        }),
      );
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
    const history = timelineText(ctx.t, order, ctx.locale, ctx.shopTime.zone);
    // A physical order's option, name, address, phone masked ("Show phone" below reveals it).
    const shipping = shippingBlock(ctx, order, deps.shippingOptions ?? []);
    const next = nextStepKeyboard(ctx, order.id, order.status) ?? new InlineKeyboard();
    await ctx.reply(
      [
        ctx.t("op-order-detail", {
          id: order.id,
          status: ctx.t(`status-${order.status}`),
          customer: maskedCustomer(order.userId),
          items: itemLines(ctx.t, order, ctx.locale),
          total: formatMoney(order.totalMinor, order.currency),
          created: `${formatDate(order.createdAt, ctx.locale, ctx.shopTime.zone)} ${formatTime(order.createdAt, ctx.locale, ctx.shopTime.zone)}`,
          // Only an order that can still be paid is held until a time.
          expires:
            order.status === "RESERVED" || order.status === "PAYING"
              ? ctx.t("op-order-held-until", {
                  expires: formatTime(order.expiresAt, ctx.locale, ctx.shopTime.zone),
                })
              : "",
        }),
        ...(shipping ? [shipping] : []),
        ...(history ? [history] : []),
      ].join("\n\n"),
      {
        reply_markup: withShowPhone(
          ctx,
          next
            .row()
            .text(ctx.t("btn-show-customer"), callbacks.customerId.encode({ orderId: order.id })),
          order,
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
    // `/refund ID [reason]`: the reason is required once the goods went out, and kept in the timeline.
    const [word, ...words] = arg(ctx).split(/\s+/);
    const id = (word ?? "").toUpperCase();
    if (!id) return respond(ctx, ctx.t("op-refund-usage"));
    if (!(await requireRight(ctx, "refund", deps.ownerIds))) return;
    const reason = words.join(" ").trim();
    const result = await deps.payments.refundOrder(id, actorOf(ctx), {
      reason: reason === "" ? null : reason,
      actorName: ctx.from?.username ? `@${ctx.from.username}` : (ctx.from?.first_name ?? null),
    });
    switch (result.status) {
      case "ok":
        await respond(
          ctx,
          result.replayed
            ? ctx.t("op-refund-already-done", { id })
            : result.order.status === "REFUNDED"
              ? ctx.t("op-refund-ok", { id })
              : ctx.t("op-refund-shipped-ok", {
                  id,
                  status: ctx.t(`status-${result.order.status}`),
                  reason,
                }),
        );
        break;
      case "reason-required":
        await respond(
          ctx,
          ctx.t("op-refund-reason-required", { id, status: ctx.t(`status-${result.current}`) }),
        );
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
