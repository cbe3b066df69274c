import { Composer } from "grammy";
import type { CancelOrderResult, OrderService } from "@orderbot/core/orders";
import type { BotContext } from "../bot/context.ts";
import { callbacks } from "@orderbot/conversation";
import { orderCard } from "../format/order-card.ts";
import { alert, showInPlace } from "./support.ts";

/**
 * Cancel on an order: the reservation ends and its stock goes back on sale (once). The card shows
 * the order cancelled; its invoice, which can no longer be paid, is deleted through the outbox
 * (a `voidInvoice` event queued with the cancellation: core's orders/move-events.ts).
 */
export function cancelFeature(orders: OrderService): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  const privateChats = feature.chatType("private");

  privateChats.callbackQuery(callbacks.cancel.pattern, async (ctx) => {
    const data = callbacks.cancel.decode(ctx.callbackQuery.data);
    if (!data) return ctx.answerCallbackQuery({ text: ctx.t("button-invalid") });
    // The order service checks that the order is the presser's: crafted data cannot cancel another's.
    const result = await orders.cancelOrder(data.orderId, ctx.from.id);
    await tellOutcome(ctx, data.orderId, result);
  });

  async function tellOutcome(
    ctx: BotContext,
    id: string,
    result: CancelOrderResult,
  ): Promise<void> {
    switch (result.status) {
      case "ok": {
        await ctx.answerCallbackQuery({ text: ctx.t("order-cancelled", { id }) });
        const card = orderCard(ctx, result.order);
        await showInPlace(ctx, card.text, card.keyboard);
        break;
      }
      case "expired":
        await alert(ctx, ctx.t("order-cancel-expired", { id }));
        await rerender(ctx, id);
        break;
      case "conflict":
        await alert(
          ctx,
          ctx.t("order-cancel-closed", { id, status: ctx.t(`status-${result.current}`) }),
        );
        await rerender(ctx, id);
        break;
      // Core answers someone else's order as a missing one: whether it exists is not told.
      case "not-found":
        await alert(ctx, ctx.t("order-unknown"));
        break;
      case "busy":
        await ctx.answerCallbackQuery({ text: ctx.t("order-busy") });
        break;
      case "unavailable":
        await alert(ctx, ctx.t("unavailable-nothing-changed"));
        break;
      case "invalid":
        await ctx.answerCallbackQuery({ text: ctx.t("button-invalid") });
        break;
    }
  }

  /** The message still shows buttons for a state that has passed: show the order as it is now. */
  async function rerender(ctx: BotContext, id: string): Promise<void> {
    const order = await orders.get(id);
    if (!order) return;
    const card = orderCard(ctx, order);
    await showInPlace(ctx, card.text, card.keyboard);
  }

  return feature;
}
