import { InlineKeyboard } from "grammy";
import { callbacks } from "@orderbot/conversation";
import type { Translate } from "../format/translate.ts";

/** Appends the main actions: catalog, cart, my orders, help, contact the shop. */
export function withMainMenu(t: Translate, keyboard = new InlineKeyboard()): InlineKeyboard {
  return keyboard
    .text(t("btn-menu-catalog"), callbacks.catalogPage.encode({ page: 1 }))
    .text(t("btn-menu-cart"), callbacks.menu.encode({ action: "cart" }))
    .row()
    .text(t("btn-menu-orders"), callbacks.menu.encode({ action: "orders" }))
    .text(t("btn-menu-help"), callbacks.menu.encode({ action: "help" }))
    .row()
    .text(t("btn-menu-contact"), callbacks.menu.encode({ action: "contact" }));
}

/** The main menu on its own: /start, /help. */
export const mainMenuKeyboard = (t: Translate): InlineKeyboard => withMainMenu(t);

/** The fallback reply: pass the message on to the shop first, then the main actions. */
export function askShopKeyboard(t: Translate): InlineKeyboard {
  return withMainMenu(
    t,
    new InlineKeyboard().text(t("btn-ask-shop"), callbacks.menu.encode({ action: "ask" })).row(),
  );
}
