// sendMessage, editMessageText, editMessageReplyMarkup, deleteMessage, sendChatAction; the shared
// edit checks (media.ts has the photo methods).
import type { Args } from "../args.ts";
import { badRequest, forbidden } from "../errors.ts";
import { formatMessageText } from "../format.ts";
import { replyPromptOf } from "../force-reply.ts";
import { readReplyMarkup } from "../markup.ts";
import type { ChatRecord, StoredMessage } from "../state.ts";
import type { TgMessage } from "../types.ts";
import {
  assertCanWrite,
  checkFlood,
  findMessage,
  type KitContext,
  type MethodHandler,
  replyTarget,
  resolveChat,
  unixNow,
} from "./context.ts";

const CHAT_ACTIONS = new Set([
  "typing",
  "upload_photo",
  "record_video",
  "upload_video",
  "record_voice",
  "upload_voice",
  "record_audio",
  "upload_audio",
  "upload_document",
  "choose_sticker",
  "find_location",
  "pick_up_location",
  "record_video_note",
  "upload_video_note",
  "cancel",
]);

function readText(args: Args): ReturnType<typeof formatMessageText> {
  return formatMessageText(
    args.str("text"),
    args.str("parse_mode"),
    args.json("entities", "can't parse entities JSON object"),
  );
}

/** The message as it appears inside another one (reply_to_message): one level deep. */
export function shallow(message: TgMessage): TgMessage {
  const { reply_to_message: _nested, ...rest } = structuredClone(message);
  return rest;
}

export const sendMessage: MethodHandler = (ctx, args) => {
  const { text, entities } = readText(args);
  const markup = readReplyMarkup(args);
  const chat = resolveChat(ctx, args);
  assertCanWrite(ctx, chat);
  const reply = replyTarget(chat, args);
  checkFlood(ctx, chat, "sendMessage");
  if (markup?.keyboard) chat.keyboard = markup.keyboard;
  if (markup?.removeKeyboard) chat.keyboard = undefined;
  const stored = ctx.state.addMessage(chat.chat.id, "bot", (messageId) => ({
    message_id: messageId,
    from: ctx.state.botUser,
    chat: chat.chat,
    date: unixNow(),
    ...(reply ? { reply_to_message: shallow(reply.message) } : {}),
    text,
    ...(entities.length ? { entities } : {}),
    ...(markup?.inline ? { reply_markup: markup.inline } : {}),
  }));
  if (markup?.forceReply)
    stored.prompt = replyPromptOf(ctx.state, stored.message, markup.forceReply);
  return structuredClone(stored.message);
};

/** The message to edit: it exists, the bot sent it, and the bot may still reach the chat. */
export function editable(ctx: KitContext, args: Args): { chat: ChatRecord; stored: StoredMessage } {
  if (args.str("chat_id") === "" && args.int("message_id", 0) === 0) {
    if (args.str("inline_message_id") === "")
      throw badRequest("message identifier is not specified");
    throw badRequest("MESSAGE_ID_INVALID");
  }
  const chat = resolveChat(ctx, args);
  const stored = findMessage(chat, args, "message to edit");
  if (!stored.fromBot) throw badRequest("message can't be edited");
  if (chat.chat.type === "private" && ctx.state.users.get(chat.chat.id)?.blockedBot) {
    throw forbidden("bot was blocked by the user");
  }
  return { chat, stored };
}

/** Applies an edit, or "message is not modified" when content and markup stay the same. */
export function applyEdit(
  ctx: KitContext,
  chat: ChatRecord,
  stored: StoredMessage,
  change: Partial<TgMessage>,
): TgMessage {
  const before = JSON.stringify(comparable(stored.message));
  const next: TgMessage = { ...stored.message, ...change };
  if (!change.reply_markup) delete next.reply_markup;
  if (change.entities && change.entities.length === 0) delete next.entities;
  if (change.caption === "") delete next.caption;
  if (change.caption_entities && change.caption_entities.length === 0) delete next.caption_entities;
  if (JSON.stringify(comparable(next)) === before) {
    throw badRequest(
      "message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message",
    );
  }
  next.edit_date = unixNow();
  stored.message = next;
  ctx.state.recordEvent(chat, "edited", "bot", next);
  return structuredClone(next);
}

function comparable(message: TgMessage): unknown {
  return [
    message.text,
    message.entities ?? [],
    message.photo?.at(-1)?.file_unique_id ?? null,
    message.caption ?? "",
    message.caption_entities ?? [],
    message.reply_markup ?? null,
  ];
}

export const editMessageText: MethodHandler = (ctx, args) => {
  const { text, entities } = readText(args);
  const markup = readReplyMarkup(args);
  const { chat, stored } = editable(ctx, args);
  if (stored.message.text === undefined)
    throw badRequest("there is no text in the message to edit");
  return applyEdit(ctx, chat, stored, {
    text,
    entities,
    ...(markup?.inline ? { reply_markup: markup.inline } : {}),
  });
};

export const editMessageReplyMarkup: MethodHandler = (ctx, args) => {
  const markup = readReplyMarkup(args);
  const { chat, stored } = editable(ctx, args);
  return applyEdit(ctx, chat, stored, {
    text: stored.message.text,
    entities: stored.message.entities ?? [],
    ...(markup?.inline ? { reply_markup: markup.inline } : {}),
  });
};

const DELETABLE_FOR_SECONDS = 48 * 3600;

export const deleteMessage: MethodHandler = (ctx, args) => {
  if (args.str("chat_id") === "") throw badRequest("chat identifier is not specified");
  if (args.int("message_id", 0) <= 0) throw badRequest("message identifier is not specified");
  const chat = resolveChat(ctx, args);
  const stored = findMessage(chat, args, "message to delete");
  const inGroup = chat.chat.type !== "private";
  if (inGroup && !stored.fromBot && !ctx.state.isAdmin(chat.chat.id, ctx.state.bot.id)) {
    throw badRequest("message can't be deleted");
  }
  // Telegram: "A message can only be deleted if it was sent less than 48 hours ago."
  if (unixNow() - stored.message.date >= DELETABLE_FOR_SECONDS)
    throw badRequest("message can't be deleted for everyone");
  stored.deleted = true;
  ctx.state.recordEvent(chat, "deleted", "bot", stored.message);
  return true;
};

export const sendChatAction: MethodHandler = (ctx, args) => {
  const action = args.str("action").toLowerCase();
  if (!CHAT_ACTIONS.has(action)) throw badRequest("wrong parameter action in request");
  const chat = resolveChat(ctx, args);
  assertCanWrite(ctx, chat);
  return true;
};
