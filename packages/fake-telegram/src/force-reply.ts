// force_reply: "Telegram clients will display a reply interface to the user (act as if the user has
// selected the bot's message and tapped 'Reply')". The message itself never shows the markup, so
// the fake keeps what it asked beside the message, for chat views and the web client: which
// message, the input field's placeholder, and, when `selective`, the users it is meant for.
import type { StoredMessage, TelegramState } from "./state.ts";
import type { TgMessage } from "./types.ts";

export interface ForceReply {
  placeholder?: string;
  selective: boolean;
}

/** What a chat's clients open: a reply to the message; `userIds` absent: everyone's client. */
export interface ReplyPrompt {
  messageId: number;
  placeholder?: string;
  userIds?: number[];
}

/** The markup's force_reply, or undefined when it asks for none. */
export function readForceReply(markup: Record<string, unknown>): ForceReply | undefined {
  if (markup.force_reply !== true) return undefined;
  const placeholder = markup.input_field_placeholder;
  return {
    ...(typeof placeholder === "string" && placeholder !== "" ? { placeholder } : {}),
    selective: markup.selective === true,
  };
}

/**
 * The prompt a sent message makes. Selective: for the users @mentioned in its text and the sender
 * of the message it replies to, as the Bot API describes `selective`.
 */
export function replyPromptOf(
  state: TelegramState,
  message: TgMessage,
  asked: ForceReply,
): ReplyPrompt {
  const prompt: ReplyPrompt = {
    messageId: message.message_id,
    ...(asked.placeholder ? { placeholder: asked.placeholder } : {}),
  };
  if (asked.selective) prompt.userIds = targetsOf(state, message);
  return prompt;
}

function targetsOf(state: TelegramState, message: TgMessage): number[] {
  const ids = new Set<number>();
  const replied = message.reply_to_message?.from;
  if (replied && !replied.is_bot) ids.add(replied.id);
  const text = message.text ?? message.caption ?? "";
  for (const entity of message.entities ?? message.caption_entities ?? []) {
    if (entity.type === "text_mention") ids.add(entity.user.id);
    if (entity.type !== "mention") continue;
    const username = text.slice(entity.offset + 1, entity.offset + entity.length).toLowerCase();
    for (const { user } of state.users.values())
      if (user.username?.toLowerCase() === username) ids.add(user.id);
  }
  return [...ids];
}

/** The newest prompt of the bot's visible messages that no later message has answered. */
export function openPrompt(visible: readonly StoredMessage[]): ReplyPrompt | undefined {
  for (let i = visible.length - 1; i >= 0; i--) {
    const { prompt } = visible[i]!;
    if (!prompt) continue;
    const answered = visible
      .slice(i + 1)
      .some((later) => later.message.reply_to_message?.message_id === prompt.messageId);
    return answered ? undefined : structuredClone(prompt);
  }
  return undefined;
}
