import { Composer } from "grammy";
import type { GroupService } from "@orderbot/core/groups";
import type { BotContext } from "../bot/context.ts";
import { isLocale } from "../format/translate.ts";

/**
 * What happens to a group itself, as opposed to what its members ask:
 * - upgraded to a supergroup (`migrate_to_chat_id` in the old chat, `migrate_from_chat_id` in
 *   the new one; Telegram sends both): the binding, its settings and its unsent messages follow
 *   to the new id (`GroupService.migrate`, idempotent, so either message, a re-delivery or both
 *   replicas may do it). The supergroup is told once, from the message that arrives there;
 * - the bot removed from a bound group (`my_chat_member` left or kicked): its pending messages
 *   become dead letters and every owner (`OWNER_IDS`) is told privately, since the group can no
 *   longer hear the shop's alerts.
 * Errors propagate, so Telegram delivers the update again until it is done.
 */
export function groupLifecycleFeature(deps: {
  groups: Pick<GroupService, "migrate" | "botRemoved" | "get">;
  ownerIds: readonly bigint[];
}): Composer<BotContext> {
  const feature = new Composer<BotContext>();

  feature.on("message:migrate_to_chat_id", async (ctx) => {
    const result = await deps.groups.migrate({
      fromChatId: ctx.chat.id,
      toChatId: ctx.message.migrate_to_chat_id,
    });
    ctx.logger.info({ outcome: result.status }, "group upgrade followed (from the old chat)");
  });

  feature.on("message:migrate_from_chat_id", async (ctx) => {
    const result = await deps.groups.migrate({
      fromChatId: ctx.message.migrate_from_chat_id,
      toChatId: ctx.chat.id,
    });
    ctx.logger.info({ outcome: result.status }, "group upgrade followed (from the new chat)");
    const group = await deps.groups.get(ctx.chat.id);
    if (!group) return;
    if (isLocale(group.settings.language)) ctx.i18n.useLocale(group.settings.language);
    await ctx.reply(ctx.t("group-upgraded"));
  });

  feature.on("my_chat_member", async (ctx, next) => {
    const status = ctx.myChatMember.new_chat_member.status;
    if (status !== "left" && status !== "kicked") return next();
    const result = await deps.groups.botRemoved(ctx.chat.id);
    if (result.status !== "ok") return;
    const { group, deadLettered } = result;
    if (isLocale(group.settings.language)) ctx.i18n.useLocale(group.settings.language);
    const text = ctx.t("group-bot-removed", { title: group.title, count: deadLettered });
    for (const owner of deps.ownerIds) {
      // An owner who never started the bot cannot be written to (403): the others still are.
      await ctx.api.sendMessage(Number(owner), text).catch((error: unknown) => {
        ctx.logger.warn(
          { reason: error instanceof Error ? error.message : String(error) },
          "could not tell an owner that the bot was removed from the operator group",
        );
      });
    }
  });

  return feature;
}
