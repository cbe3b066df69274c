import { Composer } from "grammy";
import type { GroupService } from "@orderbot/core";
import type { BotContext } from "../../bot/context.ts";
import { respond } from "./guard.ts";

/** /bind in a group, by one of the shop's owners: the group becomes the operator group. */
export function bindFeature(deps: {
  groups: GroupService;
  ownerIds: readonly bigint[];
  groupId: bigint | undefined;
}): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  feature.chatType(["group", "supergroup"]).command("bind", async (ctx) => {
    const owner = ctx.from;
    if (!owner || !deps.ownerIds.includes(BigInt(owner.id)))
      return respond(ctx, ctx.t("op-bind-not-owner"));
    if (deps.groupId !== undefined && deps.groupId !== BigInt(ctx.chat.id))
      return respond(ctx, ctx.t("op-bind-elsewhere"));
    const result = await deps.groups.bind({
      chatId: ctx.chat.id,
      title: ctx.chat.title || String(ctx.chat.id),
      boundBy: owner.id,
    });
    if (result.status === "invalid")
      return respond(ctx, ctx.t("op-invalid", { problems: result.problems.join("; ") }));
    await respond(ctx, ctx.t("op-bind-ok"));
  });
  return feature;
}
