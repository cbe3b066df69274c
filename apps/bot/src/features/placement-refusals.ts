import type { PlaceOrderResult } from "@orderbot/core/orders";
import type { BotContext } from "../bot/context.ts";
import { alert } from "./support.ts";

/** The refusals that Order on a product card and Checkout of a cart share. */
export type PlacementRefusal = Extract<
  PlaceOrderResult,
  { status: "busy" | "unavailable" | "limit" | "invalid" | "unsupported-currency" }
>;

const REFUSALS: ReadonlySet<string> = new Set<PlacementRefusal["status"]>([
  "busy",
  "unavailable",
  "limit",
  "invalid",
  "unsupported-currency",
]);

/** Whether `result` is one of the shared refusals: narrows it, so a caller's switch can be exhaustive. */
export function isPlacementRefusal<T extends { status: string }>(
  result: T,
): result is Extract<T, PlacementRefusal> {
  return REFUSALS.has(result.status);
}

/**
 * A shared refusal, told the same way after either press. Each says that nothing was reserved;
 * `placed` names the press in the log ("order", "checkout").
 */
export async function tellPlacementRefusal(
  ctx: BotContext,
  refusal: PlacementRefusal,
  placed: "order" | "checkout",
): Promise<void> {
  switch (refusal.status) {
    case "busy":
      await ctx.answerCallbackQuery({ text: ctx.t("order-busy") });
      return;
    case "unavailable":
      await alert(ctx, ctx.t("unavailable"));
      return;
    case "limit":
      await alert(ctx, ctx.t("order-limit", { open: refusal.open }));
      return;
    case "invalid":
      ctx.logger.info({ placed, problems: refusal.problems }, "placement refused as invalid");
      await alert(ctx, ctx.t("order-invalid"));
      return;
    case "unsupported-currency":
      ctx.logger.error(
        { placed, currency: refusal.currency },
        "priced in a currency the shop cannot invoice",
      );
      await alert(ctx, ctx.t("order-currency-unsupported"));
      return;
  }
}
