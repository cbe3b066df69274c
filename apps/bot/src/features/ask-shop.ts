import { Composer } from "grammy";
import { cutText } from "@orderbot/platform";
import { MAX_SUPPORT_TEXT, type SupportRequests } from "@orderbot/core/customers";
import type { BotContext } from "../bot/context.ts";
import { callbacks } from "@orderbot/conversation";
import { customerName } from "../format/customer-name.ts";
import { mainMenuKeyboard } from "../keyboards/menu.ts";
import { LOCALES } from "../format/translate.ts";
import { showInPlace } from "./support.ts";

/** The prompt's text in every language: a reply to it is a question for the shop. */
function isPrompt(ctx: BotContext, text: string | undefined): boolean {
  return (
    text !== undefined &&
    LOCALES.some((locale) => ctx.i18n.fluent.translate(locale, "ask-prompt") === text)
  );
}

/**
 * "Ask the shop": a customer's question reaches the operator group (with their name and recent
 * orders) through the support relay /paysupport uses; an operator's reply there comes back here.
 * - "Ask the shop" on the "did not understand" reply passes on the message it answers;
 * - "Contact the shop" in the menu asks for the question, which is the reply to that prompt.
 */
export function askShopFeature(deps: {
  support: Pick<SupportRequests, "open">;
}): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  const privateChats = feature.chatType("private");

  /** Opens the request for the message passed on (one request per message). Null: refused, and told. */
  async function relay(
    ctx: BotContext & { from: { id: number } },
    text: string,
    messageId: number,
  ) {
    const from = ctx.from as NonNullable<BotContext["from"]>;
    const result = await deps.support.open({
      userId: from.id,
      chatId: from.id,
      topic: "question",
      text: cutText(text, MAX_SUPPORT_TEXT),
      customer: { name: customerName(from), username: from.username },
      // The chat names the request by the message it passes on; the database's upgrade trigger
      // (migration 20261209020000_support_request_keys) reads this form until it is dropped.
      requestKey: `ask:${from.id}:${messageId}`,
    });
    if (result.status === "too-many") {
      await ctx.reply(ctx.t("support-too-many", { max: result.max }));
      return null;
    }
    if (result.status !== "ok") {
      ctx.logger.warn({ problems: result.problems }, "question refused as invalid");
      await ctx.reply(ctx.t("support-invalid"));
      return null;
    }
    return result.requestId;
  }

  const prompt = (ctx: BotContext) =>
    ctx.reply(ctx.t("ask-prompt"), {
      reply_markup: { force_reply: true, input_field_placeholder: ctx.t("btn-ask-shop") },
    });

  privateChats.callbackQuery(callbacks.menu.encode({ action: "contact" }), async (ctx) => {
    await ctx.answerCallbackQuery();
    await prompt(ctx);
  });

  privateChats.callbackQuery(callbacks.menu.encode({ action: "ask" }), async (ctx) => {
    const asked = ctx.callbackQuery.message?.reply_to_message;
    await ctx.answerCallbackQuery();
    if (!asked?.text) return prompt(ctx);
    const id = await relay(ctx, asked.text, asked.message_id);
    if (id === null) return;
    await showInPlace(ctx, ctx.t("ask-sent", { id }), mainMenuKeyboard(ctx.t));
  });

  privateChats.on("message:text").filter(
    (ctx) =>
      ctx.message.reply_to_message?.from?.id === ctx.me.id &&
      isPrompt(ctx, ctx.message.reply_to_message.text),
    async (ctx) => {
      const id = await relay(ctx, ctx.message.text, ctx.message.message_id);
      if (id === null) return;
      await ctx.reply(ctx.t("ask-sent", { id }), { reply_markup: mainMenuKeyboard(ctx.t) });
    },
  );

  return feature;
}
