import type { Api, MiddlewareFn } from "grammy";
import { humanAdminIds, type GroupService, type GroupView } from "@orderbot/core/groups";
import type { BotContext } from "../../bot/context.ts";
import { isLocale } from "../../format/translate.ts";

/** The AbortSignal type grammY declares (its shim's); a platform AbortSignal is one at run time. */
type GrammySignal = Parameters<Api["getChatAdministrators"]>[2];

/** A reply to a command, or a dialog for a pressed button. */
export async function respond(ctx: BotContext, text: string): Promise<void> {
  if (ctx.callbackQuery) await ctx.answerCallbackQuery({ text, show_alert: true });
  else
    await ctx.reply(text, {
      reply_parameters: ctx.msg
        ? { message_id: ctx.msg.message_id, allow_sending_without_reply: true }
        : undefined,
    });
}

/** Answers in the language the group's settings name, if they name one. */
export function useGroupLanguage(ctx: BotContext, group: Pick<GroupView, "settings">): void {
  if (!isLocale(group.settings.language)) return;
  ctx.locale = group.settings.language;
  ctx.i18n.useLocale(group.settings.language);
}

/** The operator behind an action that passed `operatorsOnly` (which refuses updates without a sender). */
export function actorOf(ctx: BotContext): number {
  if (!ctx.from) throw new Error("operator action without a sender got past operatorsOnly");
  return ctx.from.id;
}

/** How long the bot trusts a group's cached admin list before asking Telegram again. */
const ADMIN_LIST_FRESH_MS = 2 * 60_000;
/**
 * The oldest admin list an operator action (money ones among them: /refund, /price, /stock) is
 * ever checked against. While another instance refreshes or Redis is down the cached list is
 * used, but past this age Telegram is asked directly, and if it cannot answer the action is
 * refused until the list is fresh: a demoted admin must not keep their rights for as long as an
 * outage lasts.
 */
const ADMIN_LIST_MAX_AGE_MS = 10 * 60_000;

/**
 * Lets an operator action through only in a bound operator group and only from one of its
 * administrators; anyone else gets a polite refusal and nothing changes. Replies in the group's
 * language. The admin list is Telegram's, cached for every instance (`GroupService.isAdmin`) and
 * trusted for two minutes; a membership change in the group makes the next check ask again.
 */
export function operatorsOnly(deps: { groups: GroupService }): MiddlewareFn<BotContext> {
  return async (ctx, next) => {
    const chat = ctx.chat;
    if (!chat) return;
    const group = await deps.groups.get(chat.id);
    if (!group) return respond(ctx, ctx.t("op-not-bound"));
    useGroupLanguage(ctx, group);
    // The lease's signal (under `group-admins`): a lost lease aborts the call instead of waiting it
    // out. grammY takes it after the `other` parameters, typed as its AbortController shim's.
    const fetchAdmins = async (signal?: AbortSignal) =>
      humanAdminIds(
        await ctx.api.getChatAdministrators(chat.id, undefined, signal as GrammySignal),
      );
    if (ctx.from === undefined) return respond(ctx, ctx.t("op-not-admin"));
    const admins = await deps.groups.refreshAdmins(group, fetchAdmins, {
      maxAgeMs: ADMIN_LIST_FRESH_MS,
      maxStaleMs: ADMIN_LIST_MAX_AGE_MS,
    });
    if (admins.status === "stale") {
      ctx.logger.warn("operator action refused: admin list too old to trust");
      return respond(ctx, ctx.t("op-admins-stale"));
    }
    const admin = admins.status === "ok" && admins.adminIds.includes(BigInt(ctx.from.id));
    if (!admin) {
      ctx.logger.info(
        { command: ctx.msg?.text?.split(" ")[0] },
        "operator action refused: not an admin",
      );
      return respond(ctx, ctx.t("op-not-admin"));
    }
    await next();
  };
}
