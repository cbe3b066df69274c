import { Composer, type Filter } from "grammy";
import type { OwedReply, ReplyPrompts } from "@orderbot/conversation";
import type { GroupService } from "@orderbot/core/groups";
import type { BotContext } from "../../bot/context.ts";
import { respond, useGroupLanguage } from "./guard.ts";

type OwedReplyDeps = {
  prompts: Pick<ReplyPrompts, "owed" | "answered">;
  groups: Pick<GroupService, "get">;
};

type GroupText = Filter<BotContext, "message:text">;

/**
 * An operator asked for a note by reply (Ship's tracking note, a refund's note) who sends it as a
 * plain message instead is told, once, to reply to the bot's message: the bot only reads a note
 * from a reply, and must not ship with a stray line of chat. (It sees plain group messages as an
 * admin of the group, or with privacy mode off.) Anyone else's chatter is left alone.
 */
export function owedReplyFeature(deps: OwedReplyDeps): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  feature.on("message:text").filter(isPlainText, (ctx, next) => remind(ctx, deps, next));
  return feature;
}

function isPlainText(ctx: BotContext): boolean {
  const message = ctx.message;
  return (
    message?.text !== undefined &&
    message.reply_to_message === undefined &&
    !message.text.startsWith("/") &&
    ctx.from !== undefined
  );
}

async function remind(ctx: GroupText, deps: OwedReplyDeps, next: () => Promise<void>) {
  const owed = await deps.prompts.owed(ctx.chat.id, ctx.from.id);
  if (!owed) return next();
  await deps.prompts.answered(ctx.chat.id, ctx.from.id);
  const group = await deps.groups.get(ctx.chat.id);
  if (group) useGroupLanguage(ctx, group);
  await respond(ctx, hint(ctx, owed));
}

function hint(ctx: BotContext, owed: OwedReply): string {
  switch (owed.kind) {
    case "ship-note":
      return ctx.t("op-reply-owed-ship", { id: owed.orderId });
    case "refund-note":
      return ctx.t("op-reply-owed-refund", { charge: owed.chargeId });
  }
}
