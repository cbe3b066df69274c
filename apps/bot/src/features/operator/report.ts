import { Composer } from "grammy";
import { formatMoney } from "@orderbot/conversation";
import type { GroupService } from "@orderbot/core/groups";
import type { Reports } from "@orderbot/core/reports";
import type { BotContext } from "../../bot/context.ts";

/** /report: today's figures so far, the same ones the worker posts once a day. */
export function reportFeature(deps: {
  reports: Reports;
  groups: GroupService;
  /** Shown with a zero revenue, so that the amount always carries its currency. */
  currency?: string;
}): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  feature.command("report", async (ctx) => {
    const group = ctx.chat ? await deps.groups.get(ctx.chat.id) : null;
    const report = await deps.reports.today({
      lowStockThreshold: group?.settings.lowStockThreshold ?? 3,
    });
    const revenue =
      report.revenue.map((r) => formatMoney(r.amountMinor, r.currency)).join(", ") ||
      formatMoney(0, deps.currency ?? "XTR");
    const lowStock = report.lowStock.map((p) => `${p.sku} (${p.stock})`).join(", ") || "–";
    await ctx.reply(
      ctx.t("op-report", {
        day: report.day,
        zone: report.timeZone,
        placed: report.ordersPlaced,
        paid: report.revenue.reduce((sum, r) => sum + r.payments, 0),
        cancelled: report.ordersCancelled,
        expired: report.ordersExpired,
        revenue,
        refunded: report.refunded,
        refundsPending: report.refundsPending,
        lowStock,
      }),
    );
  });
  return feature;
}
