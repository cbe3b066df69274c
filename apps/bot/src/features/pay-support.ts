import { Composer } from "grammy";
import { MAX_SUPPORT_TEXT, type SupportRequests } from "@orderbot/core/customers";
import type { BotContext } from "../bot/context.ts";
import { customerName } from "../format/customer-name.ts";

export interface PaySupportFeatureDeps {
  support: SupportRequests;
  /** SHOP_TERMS; empty: the built-in terms in the user's language. */
  terms: string;
  /** SHOP_SUPPORT_CONTACT; empty: none beyond this chat. */
  contact: string;
}

/**
 * /paysupport and /terms, which Telegram asks of every bot that takes payments. /paysupport opens
 * a support request (with whatever the buyer wrote after the command) that every operator group
 * sees with the buyer's recent orders, and tells the buyer how the shop answers.
 */
export function paySupportFeature(deps: PaySupportFeatureDeps): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  const privateChats = feature.chatType("private");

  privateChats.command("paysupport", async (ctx) => {
    const text = ctx.match.trim();
    if (text.length > MAX_SUPPORT_TEXT)
      return ctx.reply(ctx.t("support-too-long", { max: MAX_SUPPORT_TEXT }));
    const result = await deps.support.open({
      userId: ctx.from.id,
      chatId: ctx.chat.id,
      topic: "paysupport",
      text,
      customer: { name: customerName(ctx.from), username: ctx.from.username },
    });
    if (result.status === "too-many")
      return ctx.reply(ctx.t("support-too-many", { max: result.max }));
    if (result.status !== "ok") {
      ctx.logger.warn({ problems: result.problems }, "support request refused as invalid");
      return ctx.reply(ctx.t("support-invalid"));
    }
    const lines = [ctx.t("support-opened", { id: result.requestId })];
    if (deps.contact !== "") lines.push(ctx.t("support-contact", { contact: deps.contact }));
    if (text === "") lines.push(ctx.t("support-add-details"));
    await ctx.reply(lines.join("\n"));
  });

  privateChats.command("terms", (ctx) =>
    ctx.reply(deps.terms !== "" ? deps.terms : ctx.t("terms-default")),
  );

  return feature;
}
