import { Composer, InlineKeyboard } from "grammy";
import type { GroupService } from "@orderbot/core/groups";
import type { BotContext } from "../../bot/context.ts";
import { callbacks, problemsText } from "@orderbot/conversation";
import { respond } from "./guard.ts";

/**
 * /bind in a group, by one of the shop's owners: the group becomes the operator group. /unbind,
 * also owners only, undoes it after a confirmation button (pressed by an owner too).
 */
export function bindFeature(deps: {
  groups: GroupService;
  ownerIds: readonly bigint[];
  groupId: bigint | undefined;
}): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  const groups = feature.chatType(["group", "supergroup"]);
  const isOwner = (ctx: BotContext) =>
    ctx.from !== undefined && deps.ownerIds.includes(BigInt(ctx.from.id));

  groups.command("bind", async (ctx) => {
    const owner = ctx.from;
    if (!owner || !isOwner(ctx)) return respond(ctx, ctx.t("op-bind-not-owner"));
    if (deps.groupId !== undefined && deps.groupId !== BigInt(ctx.chat.id))
      return respond(ctx, ctx.t("op-bind-elsewhere"));
    const result = await deps.groups.bind({
      chatId: ctx.chat.id,
      title: ctx.chat.title || String(ctx.chat.id),
      boundBy: owner.id,
    });
    if (result.status === "invalid")
      return respond(
        ctx,
        ctx.t("op-invalid", { problems: problemsText(ctx.locale, result.problems) }),
      );
    await respond(ctx, ctx.t("op-bind-ok"));
  });

  groups.command("unbind", async (ctx) => {
    if (!isOwner(ctx)) return respond(ctx, ctx.t("op-unbind-not-owner"));
    if (!(await deps.groups.get(ctx.chat.id))) return respond(ctx, ctx.t("op-not-bound"));
    await ctx.reply(ctx.t("op-unbind-confirm"), {
      reply_markup: new InlineKeyboard().text(
        ctx.t("btn-unbind"),
        callbacks.unbind.encode({ chatId: ctx.chat.id }),
      ),
    });
  });

  groups.callbackQuery(callbacks.unbind.pattern, async (ctx) => {
    const data = callbacks.unbind.decode(ctx.callbackQuery.data);
    if (!data || data.chatId !== ctx.chat.id)
      return ctx.answerCallbackQuery({ text: ctx.t("button-invalid") });
    if (!isOwner(ctx)) return respond(ctx, ctx.t("op-unbind-not-owner"));
    const result = await deps.groups.unbind({ chatId: ctx.chat.id, actor: ctx.from.id });
    if (result.status !== "ok") return respond(ctx, ctx.t("op-not-bound"));
    await ctx.answerCallbackQuery();
    await ctx.reply(ctx.t("op-unbind-ok"));
  });
  return feature;
}
