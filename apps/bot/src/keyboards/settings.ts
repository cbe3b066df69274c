import { InlineKeyboard } from "grammy";
import type { GroupSettings } from "@orderbot/core/groups";
import { callbacks } from "@orderbot/conversation";
import type { Translate } from "../format/translate.ts";

const LANGUAGE_NAMES = { en: "English", zh: "中文" } as const;

/**
 * One row per setting; every button carries the settings version it was drawn from, so a press
 * based on settings someone else has changed since is refused as a conflict.
 */
export function settingsKeyboard(
  t: Translate,
  settings: GroupSettings,
  version: number,
): InlineKeyboard {
  const set = (
    key: "notifyPaidOrders" | "lowStockThreshold" | "language",
    value: string | number,
  ) => callbacks.setting.encode({ key, value: String(value), version });
  const threshold = settings.lowStockThreshold;
  const keyboard = new InlineKeyboard()
    .text(
      t("btn-setting", {
        label: t("op-setting-notifyPaidOrders"),
        state: t(settings.notifyPaidOrders ? "op-setting-on" : "op-setting-off"),
      }),
      set("notifyPaidOrders", settings.notifyPaidOrders ? 0 : 1),
    )
    .row();
  if (threshold > 0) keyboard.text("−", set("lowStockThreshold", threshold - 1));
  keyboard.text(
    t("btn-setting", { label: t("op-setting-lowStockThreshold"), state: threshold }),
    set("lowStockThreshold", threshold),
  );
  keyboard.text("+", set("lowStockThreshold", threshold + 1)).row();
  const other = settings.language === "en" ? "zh" : "en";
  keyboard.text(
    t("btn-setting", { label: t("op-setting-language"), state: LANGUAGE_NAMES[settings.language] }),
    set("language", other),
  );
  return keyboard;
}
