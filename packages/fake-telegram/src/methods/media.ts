// sendPhoto, editMessageCaption, editMessageMedia: photos with a caption of 0-1024 characters.
// What can become what follows Telegram: only a media message can take new media or a caption,
// so a text message never turns into a photo (the bot sends a new message instead), and a photo
// has no text for editMessageText.
import type { Args } from "../args.ts";
import { badRequest } from "../errors.ts";
import { formatCaption } from "../format.ts";
import { replyPromptOf } from "../force-reply.ts";
import { readReplyMarkup } from "../markup.ts";
import { type PhotoRecord, readPhoto } from "../photos.ts";
import type { StoredMessage } from "../state.ts";
import type { TgMessage } from "../types.ts";
import {
  assertCanWrite,
  checkFlood,
  type MethodHandler,
  replyTarget,
  resolveChat,
  unixNow,
} from "./context.ts";
import { applyEdit, editable, shallow } from "./messages.ts";

/** The message fields of a photo with its caption (absent fields when the caption is empty). */
function photoContent(
  photo: PhotoRecord,
  caption: { text: string; entities: TgMessage["entities"] & object },
): Partial<TgMessage> {
  return {
    photo: structuredClone(photo.sizes),
    ...(caption.text ? { caption: caption.text } : {}),
    ...(caption.entities.length ? { caption_entities: caption.entities } : {}),
  };
}

function readCaption(args: Args): ReturnType<typeof formatCaption> {
  return formatCaption(
    args.str("caption"),
    args.str("parse_mode"),
    args.json("caption_entities", "can't parse entities JSON object"),
  );
}

/** Only media messages have a caption or media to replace: photos here (an invoice has neither). */
const isMedia = (stored: StoredMessage): boolean => stored.message.photo !== undefined;

export const sendPhoto: MethodHandler = (ctx, args) => {
  const caption = readCaption(args);
  const markup = readReplyMarkup(args);
  const chat = resolveChat(ctx, args);
  assertCanWrite(ctx, chat);
  const reply = replyTarget(chat, args);
  const photo = readPhoto(ctx.state.photos, args, "photo");
  checkFlood(ctx, chat, "sendPhoto");
  if (markup?.keyboard) chat.keyboard = markup.keyboard;
  if (markup?.removeKeyboard) chat.keyboard = undefined;
  const stored = ctx.state.addMessage(chat.chat.id, "bot", (messageId) => ({
    message_id: messageId,
    from: ctx.state.botUser,
    chat: chat.chat,
    date: unixNow(),
    ...(reply ? { reply_to_message: shallow(reply.message) } : {}),
    ...photoContent(photo, caption),
    ...(markup?.inline ? { reply_markup: markup.inline } : {}),
  }));
  if (markup?.forceReply)
    stored.prompt = replyPromptOf(ctx.state, stored.message, markup.forceReply);
  return structuredClone(stored.message);
};

export const editMessageCaption: MethodHandler = (ctx, args) => {
  const caption = readCaption(args);
  const markup = readReplyMarkup(args);
  const { chat, stored } = editable(ctx, args);
  if (!isMedia(stored)) throw badRequest("there is no caption in the message to edit");
  return applyEdit(ctx, chat, stored, {
    caption: caption.text,
    caption_entities: caption.entities,
    ...(markup?.inline ? { reply_markup: markup.inline } : {}),
  });
};

interface InputMedia {
  type?: unknown;
  media?: unknown;
  caption?: unknown;
  parse_mode?: unknown;
  caption_entities?: unknown;
}

/** editMessageMedia replaces the photo and the caption together: no caption given, none kept. */
export const editMessageMedia: MethodHandler = (ctx, args) => {
  const input = args.json("media", "can't parse InputMedia JSON object");
  if (input === undefined) throw badRequest('parameter "media" is required');
  if (typeof input !== "object" || input === null || Array.isArray(input))
    throw badRequest("can't parse InputMedia JSON object");
  const media = input as InputMedia;
  if (media.type !== "photo") throw badRequest("can't parse InputMedia JSON object");
  const caption = formatCaption(
    typeof media.caption === "string" ? media.caption : "",
    typeof media.parse_mode === "string" ? media.parse_mode : "",
    media.caption_entities,
  );
  const markup = readReplyMarkup(args);
  const { chat, stored } = editable(ctx, args);
  if (!isMedia(stored)) throw badRequest("there is no media in the message to edit");
  const photo = readPhoto(ctx.state.photos, args, "media", media.media ?? "");
  return applyEdit(ctx, chat, stored, {
    photo: structuredClone(photo.sizes),
    caption: caption.text,
    caption_entities: caption.entities,
    ...(markup?.inline ? { reply_markup: markup.inline } : {}),
  });
};
