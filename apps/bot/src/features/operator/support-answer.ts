import { Composer } from "grammy";
import type { SupportRequests } from "@orderbot/core/customers";
import type { BotContext } from "../../bot/context.ts";
import { respond } from "./guard.ts";

/** The head of a support request's alert, as the worker renders it (operator-notices.ftl). */
const ALERT_MARK = /^(?:Question|顾客问题) #(\d+)/;

/** The support request an operator's message answers: a text reply to the bot's alert of it. */
function answeredRequest(ctx: BotContext): number | null {
  const replied = ctx.message?.reply_to_message;
  if (ctx.message?.text === undefined || replied?.from?.id !== ctx.me.id) return null;
  const match = ALERT_MARK.exec(replied.text ?? "");
  return match ? Number(match[1]) : null;
}

export const isSupportAnswer = (ctx: BotContext): boolean => answeredRequest(ctx) !== null;

/**
 * An operator replying to a support request's alert in the group: the reply goes to the customer
 * (through the outbox, once per message), and the group is told it went.
 */
export function supportAnswerFeature(
  support: Pick<SupportRequests, "answer">,
): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  feature.on("message:text").filter(isSupportAnswer, async (ctx) => {
    const requestId = answeredRequest(ctx)!;
    const result = await support.answer({
      requestId,
      answerKey: `${ctx.chat.id}:${ctx.message.message_id}`,
      text: ctx.message.text,
    });
    switch (result.status) {
      case "ok":
        return respond(ctx, ctx.t("op-support-answered", { id: requestId }));
      case "not-found":
        return respond(ctx, ctx.t("op-support-unknown", { id: requestId }));
      case "invalid":
        return respond(ctx, ctx.t("op-support-invalid"));
    }
  });
  return feature;
}
