import { Composer } from "grammy";
import type { GroupService, GroupSettingsPatch, GroupView } from "@orderbot/core/groups";
import type { BotContext } from "../../bot/context.ts";
import { callbacks, type SettingKey } from "@orderbot/conversation";
import { settingsKeyboard } from "../../keyboards/settings.ts";
import { showInPlace } from "../support.ts";
import { actorOf, respond } from "./guard.ts";

/** A button's key and value as a settings change; the group service validates the value. */
function patchOf(key: SettingKey, value: string): GroupSettingsPatch {
  switch (key) {
    case "notifyPaidOrders":
      return { notifyPaidOrders: value === "1" };
    case "lowStockThreshold":
      return { lowStockThreshold: Number(value) };
    case "language":
      return { language: value as GroupSettingsPatch["language"] };
  }
}

/**
 * /settings: the group's settings as buttons. Changes are optimistic: each button carries the
 * version it was drawn from, and of two admins pressing at once only the first wins; the other is
 * told and shown the settings as they are now.
 */
export function settingsFeature(groups: GroupService): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  const render = (ctx: BotContext, group: GroupView) => ({
    text: ctx.t("op-settings-title", { version: group.version }),
    keyboard: settingsKeyboard(ctx.t, group.settings, group.version),
  });

  feature.command("settings", async (ctx) => {
    const group = ctx.chat ? await groups.get(ctx.chat.id) : null;
    if (!group) return respond(ctx, ctx.t("op-not-bound"));
    const { text, keyboard } = render(ctx, group);
    await ctx.reply(text, { reply_markup: keyboard });
  });

  feature.callbackQuery(callbacks.setting.pattern, async (ctx) => {
    const data = callbacks.setting.decode(ctx.callbackQuery.data);
    if (!data || !ctx.chat) return ctx.answerCallbackQuery({ text: ctx.t("button-invalid") });
    const result = await groups.updateSettings({
      chatId: ctx.chat.id,
      patch: patchOf(data.key, data.value),
      expectedVersion: data.version,
      actor: actorOf(ctx),
    });
    switch (result.status) {
      case "ok":
      case "conflict": {
        if (result.status === "ok")
          await ctx.answerCallbackQuery({ text: ctx.t("op-settings-saved") });
        else await respond(ctx, ctx.t("op-settings-conflict"));
        const { text, keyboard } = render(ctx, result.group);
        await showInPlace(ctx, text, keyboard);
        break;
      }
      case "not-found":
        await respond(ctx, ctx.t("op-not-bound"));
        break;
      case "invalid":
        await ctx.answerCallbackQuery({ text: ctx.t("button-invalid") });
        break;
    }
  });

  return feature;
}
