// Turning what happens on Telegram's side into updates for the bot: a user's message lands in the
// chat and becomes a "message" update, unless the bot may not see it (privacy mode in groups).
import type { QueuedUpdate } from "./delivery/queue.ts";
import { detectEntities } from "./format.ts";
import { type KitContext, unixNow } from "./methods/context.ts";
import type { ChatRecord, StoredMessage } from "./state.ts";
import type { Document, PhotoSize } from "@grammyjs/types";
import type { TgMessage, TgUpdate, User } from "./types.ts";

export interface PostedMessage {
  stored: StoredMessage;
  queued: QueuedUpdate;
}

/** A message from a user (or a service message) in a chat, and the update it makes. */
export function postUserMessage(
  ctx: KitContext,
  chat: ChatRecord,
  from: User,
  content: Partial<TgMessage>,
): PostedMessage {
  const stored = ctx.state.addMessage(chat.chat.id, "user", (messageId) => ({
    message_id: messageId,
    from,
    chat: chat.chat,
    date: unixNow(),
    ...content,
  }));
  const hidden = hiddenFromBot(ctx, chat, stored.message);
  const queued = ctx.queue.enqueue(
    { message: structuredClone(stored.message) },
    chat.chat.id,
    hidden,
  );
  return { stored, queued };
}

/** A text message with the entities Telegram would find in it (commands, mentions, URLs). */
export function textContent(text: string, replyTo?: TgMessage): Partial<TgMessage> {
  const entities = detectEntities(text);
  return {
    ...(replyTo ? { reply_to_message: replyTo } : {}),
    text,
    ...(entities.length ? { entities } : {}),
  };
}

/** A photo message with its caption and the entities Telegram would find in the caption. */
export function photoContent(
  sizes: PhotoSize[],
  caption: string | undefined,
  replyTo?: TgMessage,
): Partial<TgMessage> {
  return withCaption({ photo: structuredClone(sizes) }, caption, replyTo);
}

/** A document message (a file the user sent) with its caption and the caption's entities. */
export function documentContent(
  document: Document,
  caption: string | undefined,
  replyTo?: TgMessage,
): Partial<TgMessage> {
  return withCaption({ document: structuredClone(document) }, caption, replyTo);
}

/** A media message: the media, then its caption (trimmed) and the entities found in it. */
function withCaption(
  media: Partial<TgMessage>,
  caption: string | undefined,
  replyTo?: TgMessage,
): Partial<TgMessage> {
  const text = caption?.trim() ?? "";
  const entities = detectEntities(text);
  return {
    ...(replyTo ? { reply_to_message: replyTo } : {}),
    ...media,
    ...(text ? { caption: text } : {}),
    ...(entities.length ? { caption_entities: entities } : {}),
  };
}

/** Adds any other update (callback_query, pre_checkout_query, my_chat_member...). */
export function postUpdate(
  ctx: KitContext,
  body: Omit<TgUpdate, "update_id">,
  queueKey: number,
): QueuedUpdate {
  return ctx.queue.enqueue(body, queueKey);
}

/**
 * Privacy mode: in groups, a bot that is not an admin and cannot read all messages sees only
 * commands (not addressed to another bot, in a text or a caption), replies to its own messages
 * and service messages.
 */
function hiddenFromBot(ctx: KitContext, chat: ChatRecord, message: TgMessage): string | undefined {
  if (chat.chat.type === "private") return undefined;
  const { bot } = ctx.state;
  const status = ctx.state.memberStatus(chat.chat.id, bot.id);
  if (status === "left" || status === "kicked") return "the bot is not a member of the chat";
  if (bot.canReadAllGroupMessages || ctx.state.isAdmin(chat.chat.id, bot.id)) return undefined;
  const said = message.text ?? message.caption;
  if (said === undefined && message.photo === undefined) return undefined;
  if (message.reply_to_message?.from?.id === bot.id) return undefined;
  const command = /^\/[a-zA-Z0-9_]+(?:@([a-zA-Z0-9_]+))?/.exec(said ?? "");
  if (command && (!command[1] || command[1].toLowerCase() === bot.username.toLowerCase()))
    return undefined;
  return "privacy mode: the bot does not see this group message";
}
