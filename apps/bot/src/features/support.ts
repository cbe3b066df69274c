import type { InlineKeyboard } from "grammy";
import type { BotContext } from "../bot/context.ts";
import { showScreen } from "./screen.ts";

/**
 * Shows `text` in the message whose button was pressed, even when that message is a photo card
 * (screen.ts: text and photos cannot be edited into each other). Idempotent: "message is not
 * modified" is success. Resolves with the id of the message now showing it.
 */
export function showInPlace(
  ctx: BotContext,
  text: string,
  keyboard?: InlineKeyboard,
): Promise<number | undefined> {
  return showScreen(ctx, { text, keyboard });
}

/** A callback answer shown as a dialog the user must dismiss: for refusals they should not miss. */
export function alert(ctx: BotContext, text: string): Promise<true> {
  return ctx.answerCallbackQuery({ text, show_alert: true });
}
