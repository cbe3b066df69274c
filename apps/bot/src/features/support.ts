import type { InlineKeyboard } from "grammy";
import { cutText } from "@orderbot/platform";
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

/** Telegram's limit on a message's text. */
export const MAX_MESSAGE_TEXT = 4096;

/** Telegram's limit on a callback answer's text: a longer one is refused, and the answer lost. */
export const MAX_CALLBACK_ANSWER = 200;

/**
 * A callback answer shown as a dialog the user must dismiss: for refusals they should not miss.
 * Never over Telegram's limit: a text that could be longer goes through `alertOrDefer`.
 */
export function alert(ctx: BotContext, text: string): Promise<true> {
  return ctx.answerCallbackQuery({
    text: cutText(text, MAX_CALLBACK_ANSWER, "…"),
    show_alert: true,
  });
}

/**
 * Alerts `text` when it fits a callback answer; otherwise alerts `short` and returns `text`, for
 * the message the caller shows next (a shortage naming several products).
 */
export async function alertOrDefer(
  ctx: BotContext,
  text: string,
  short: string,
): Promise<string | undefined> {
  if (text.length <= MAX_CALLBACK_ANSWER) {
    await alert(ctx, text);
    return undefined;
  }
  await alert(ctx, short);
  return text;
}
