import type { PlaceOrderResult } from "@orderbot/core";
import type { BotContext } from "../bot/context.ts";
import { alert } from "./support.ts";

type Refusal = Extract<
  PlaceOrderResult,
  { status: "busy" | "unavailable" | "limit" | "invalid" | "unsupported-currency" }
>;

/**
 * The refusals that Order on a product card and Checkout of a cart share, told the same way. Each
 * says that nothing was reserved; `placed` names the press in the log ("order", "checkout").
 * Returns false, having said nothing, for any other result.
 */
export async function tellPlacementRefusal(
  ctx: BotContext,
  result: { status: string },
  placed: "order" | "checkout",
): Promise<boolean> {
  if (!isRefusal(result)) return false;
  const refusal = result;
  switch (refusal.status) {
    case "busy":
      await ctx.answerCallbackQuery({ text: ctx.t("order-busy") });
      return true;
    case "unavailable":
      await alert(ctx, ctx.t("unavailable"));
      return true;
    case "limit":
      await alert(ctx, ctx.t("order-limit", { open: refusal.open }));
      return true;
    case "invalid":
      ctx.logger.info({ placed, problems: refusal.problems }, "placement refused as invalid");
      await alert(ctx, ctx.t("order-invalid"));
      return true;
    case "unsupported-currency":
      ctx.logger.error(
        { placed, currency: refusal.currency },
        "priced in a currency the shop cannot invoice",
      );
      await alert(ctx, ctx.t("order-currency-unsupported"));
      return true;
  }
}

const REFUSALS: ReadonlySet<string> = new Set<Refusal["status"]>([
  "busy",
  "unavailable",
  "limit",
  "invalid",
  "unsupported-currency",
]);

function isRefusal(result: { status: string }): result is Refusal {
  return REFUSALS.has(result.status);
}
