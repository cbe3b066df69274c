import { GrammyError, type InlineKeyboard } from "grammy";
import type { BotContext } from "../bot/context.ts";

/** What a button press shows: a text, or a photo with the text as its caption. */
export interface Screen {
  text: string;
  keyboard?: InlineKeyboard | undefined;
  /** A Telegram file_id or an HTTP(S) URL; absent or null: a text message. */
  photo?: string | null | undefined;
}

/** Telegram's limit for a caption; a longer screen is shown as text, without its photo. */
export const MAX_CAPTION_LENGTH = 1024;

/** Answers that mean the photo itself cannot be shown (a dead URL, a file_id of another bot). */
const PHOTO_REFUSED =
  /wrong file identifier|failed to get HTTP URL content|wrong type of the web page content|IMAGE_PROCESS_FAILED|PHOTO_INVALID|there is no photo in the request/i;

const notModified = (error: unknown): boolean =>
  error instanceof GrammyError && error.description.includes("message is not modified");

const photoRefused = (error: unknown): boolean =>
  error instanceof GrammyError && PHOTO_REFUSED.test(error.description);

/**
 * Shows a screen in the message whose button was pressed. Telegram edits a message only within its
 * kind: text stays text (editMessageText), a photo stays a photo (editMessageCaption, or
 * editMessageMedia for another photo). Between kinds the new screen is sent as a new message and
 * the old one is deleted, in that order, so that a failure leaves the user one screen, never none.
 * A photo Telegram cannot show falls back to the text screen: a bad photo never blocks the shop.
 * Resolves with the id of the message now showing the screen (undefined without a message).
 *
 * Editing is idempotent: a double tap or a re-delivered update renders the same screen again,
 * which Telegram reports as "message is not modified" — that is success here, not an error.
 *
 * `samePhoto`: the message already shows this photo (a quantity change on a product card), so
 * only the caption and the keyboard change, without fetching the photo again.
 */
export async function showScreen(
  ctx: BotContext,
  screen: Screen,
  options: { samePhoto?: boolean } = {},
): Promise<number | undefined> {
  const photo = screen.photo && screen.text.length <= MAX_CAPTION_LENGTH ? screen.photo : null;
  const reply_markup = screen.keyboard ?? { inline_keyboard: [] };
  const current = ctx.callbackQuery?.message;
  const showsPhoto = current !== undefined && "photo" in current && current.photo !== undefined;
  try {
    if (!current) {
      return await send(ctx, { ...screen, photo });
    } else if (photo && showsPhoto) {
      if (options.samePhoto) await ctx.editMessageCaption({ caption: screen.text, reply_markup });
      else
        await ctx.editMessageMedia(
          { type: "photo", media: photo, caption: screen.text },
          { reply_markup },
        );
    } else if (!photo && !showsPhoto) {
      await ctx.editMessageText(screen.text, { reply_markup });
    } else {
      const sent = await send(ctx, { ...screen, photo });
      await deleteQuietly(ctx);
      return sent;
    }
    return current.message_id;
  } catch (error) {
    if (notModified(error)) return current?.message_id;
    if (!photo || !photoRefused(error)) throw error;
    ctx.logger.warn(
      { reason: (error as GrammyError).description },
      "card photo refused: text card",
    );
    return showScreen(ctx, { ...screen, photo: null });
  }
}

/** Sends the screen as a new message; resolves with its id. */
async function send(ctx: BotContext, screen: Screen): Promise<number> {
  const reply_markup = screen.keyboard;
  const sent = screen.photo
    ? await ctx.replyWithPhoto(screen.photo, { caption: screen.text, reply_markup })
    : await ctx.reply(screen.text, { reply_markup });
  return sent.message_id;
}

/** The old screen goes; Telegram refuses to delete a bot's message after 48 hours, then it stays. */
async function deleteQuietly(ctx: BotContext): Promise<void> {
  try {
    await ctx.deleteMessage();
  } catch (error) {
    if (!(error instanceof GrammyError)) throw error;
    ctx.logger.info({ reason: error.description }, "old screen not deleted");
  }
}
