import { Composer, InlineKeyboard, type CallbackQueryContext } from "grammy";
import type { OrderView } from "@orderbot/core";
import { ORDER_STATUSES, type OrderService } from "@orderbot/core/orders";
import type { PaymentService } from "@orderbot/core/payments";
import type { BotContext } from "../../bot/context.ts";
import { callbacks, formatMoney } from "@orderbot/conversation";
import { formatDate, formatTime, itemLines, maskedCustomer } from "../../format/order.ts";
import { timelineText } from "../../format/timeline.ts";
import { nextStepKeyboard } from "./fulfilment.ts";
import { actorOf, respond } from "./guard.ts";
import { refusalText, requireRight } from "./rights.ts";
import { shippingBlock, withShowPhone } from "./shipping.ts";
import type { ShippingOption } from "@orderbot/core/shipping";

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

type OrdersDeps = {
  orders: OrderService;
  payments: PaymentService;
  ownerIds: readonly bigint[];
  mask: (id: bigint | number) => string;
  /** SHIPPING_OPTIONS: a physical order's option by its title. */
  shippingOptions?: readonly ShippingOption[];
};

/**
 * /orders [STATUS], /order ID and /refund ID, for the operator group's admins. /order masks the
 * customer's id (every group member reads the reply); its button shows the id to the admin who
 * presses it, in a dialog nobody else sees, and the log records who asked (masked).
 */
export function operatorOrdersFeature(deps: OrdersDeps): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  feature.command("orders", (ctx) => listOrders(ctx, deps.orders));
  feature.command("order", (ctx) => showOrder(ctx, deps));
  feature.callbackQuery(callbacks.customerId.pattern, (ctx) => revealCustomer(ctx, deps));
  feature.command("refund", (ctx) => refundCommand(ctx, deps));
  return feature;
}

/** `/orders [STATUS]`: the latest orders, in that status when one is named. */
async function listOrders(ctx: BotContext, orders: OrderService): Promise<void> {
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
  const found = await orders.list({ ...(status ? { status } : {}), limit: SHOWN });
  if (found.length === 0) return respond(ctx, ctx.t("op-orders-empty"));
  const title = ctx.t("op-orders-title", {
    status: status ? ` (${ctx.t(`status-${status}`)})` : "",
  });
  await ctx.reply([title, ...found.map((o) => orderLine(ctx, o))].join("\n"));
}

/** `/order ID`: the order in detail, the customer masked, with its next steps. */
async function showOrder(ctx: BotContext, deps: OrdersDeps): Promise<void> {
  const id = arg(ctx).toUpperCase();
  if (!id) return respond(ctx, ctx.t("op-order-usage"));
  const order = await deps.orders.get(id);
  if (!order) return respond(ctx, ctx.t("order-not-found"));
  const history = timelineText(ctx.t, order, ctx.locale, ctx.shopTime.zone);
  // A physical order's option, name, address, phone masked ("Show phone" below reveals it).
  const shipping = shippingBlock(ctx, order, deps.shippingOptions ?? []);
  const next = nextStepKeyboard(ctx, order.id, order.status) ?? new InlineKeyboard();
  await ctx.reply(
    [orderDetail(ctx, order), ...(shipping ? [shipping] : []), ...(history ? [history] : [])].join(
      "\n\n",
    ),
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
}

function orderDetail(ctx: BotContext, order: OrderView): string {
  return ctx.t("op-order-detail", {
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
  });
}

/** The customer's id, in a dialog only the admin who pressed sees; the log says who (masked). */
async function revealCustomer(ctx: CallbackQueryContext<BotContext>, deps: OrdersDeps) {
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
}

async function refundCommand(ctx: BotContext, deps: OrdersDeps): Promise<void> {
  // `/refund ID [reason]`: the reason is required once the goods went out, and kept in the timeline.
  const [word, ...words] = arg(ctx).split(/\s+/);
  const id = (word ?? "").toUpperCase();
  if (!id) return respond(ctx, ctx.t("op-refund-usage"));
  const actor = await requireRight(ctx, "refund", deps.ownerIds);
  if (!actor) return;
  const reason = words.join(" ").trim();
  const result = await deps.payments.refundOrder(id, actor, {
    reason: reason === "" ? null : reason,
    actorName: ctx.from?.username ? `@${ctx.from.username}` : (ctx.from?.first_name ?? null),
  });
  await respond(ctx, refundText(ctx, id, reason, result));
}

function refundText(
  ctx: BotContext,
  id: string,
  reason: string,
  result: Awaited<ReturnType<PaymentService["refundOrder"]>>,
): string {
  switch (result.status) {
    case "ok":
      return result.replayed
        ? ctx.t("op-refund-already-done", { id })
        : result.order.status === "REFUNDED"
          ? ctx.t("op-refund-ok", { id })
          : ctx.t("op-refund-shipped-ok", {
              id,
              status: ctx.t(`status-${result.order.status}`),
              reason,
            });
    case "reason-required":
      return ctx.t("op-refund-reason-required", { id, status: ctx.t(`status-${result.current}`) });
    case "conflict":
      return ctx.t("op-refund-not-paid", { id, status: ctx.t(`status-${result.current}`) });
    case "not-found":
    case "invalid":
      return ctx.t("order-not-found");
    case "busy":
      return ctx.t("op-busy");
    case "unavailable":
      return ctx.t("op-unavailable");
    case "forbidden":
      return refusalText(ctx, result);
  }
}
