import { GrammyError, type InlineKeyboard } from "grammy";
import type { BotContext } from "../bot/context.ts";

/**
 * Shows `text` in the message whose button was pressed. Editing is idempotent: a double tap or a
 * re-delivered update renders the same state again, which Telegram reports as "message is not
 * modified" — that is success here, not an error.
 */
export async function showInPlace(
  ctx: BotContext,
  text: string,
  keyboard?: InlineKeyboard,
): Promise<void> {
  try {
    await ctx.editMessageText(text, { reply_markup: keyboard ?? { inline_keyboard: [] } });
  } catch (error) {
    if (error instanceof GrammyError && error.description.includes("message is not modified"))
      return;
    throw error;
  }
}

/** A callback answer shown as a dialog the user must dismiss: for refusals they should not miss. */
export function alert(ctx: BotContext, text: string): Promise<true> {
  return ctx.answerCallbackQuery({ text, show_alert: true });
}
