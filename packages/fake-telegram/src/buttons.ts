// Finding a button the way a person scans a chat: newest bot message first.
import type { InlineKeyboardButton } from "@grammyjs/types";
import { inlineButtons } from "./markup.ts";
import type { ChatRecord, StoredMessage } from "./state.ts";

export function findButton(
  chat: ChatRecord,
  matches: (button: InlineKeyboardButton) => boolean,
  messageId: number | undefined,
): { stored: StoredMessage; button: InlineKeyboardButton } | undefined {
  const messages =
    messageId !== undefined
      ? [chat.messages.get(messageId)]
      : [...chat.messages.values()].reverse();
  for (const stored of messages) {
    if (!stored || stored.deleted || !stored.fromBot) continue;
    const button = inlineButtons(stored.message.reply_markup).find(matches);
    if (button) return { stored, button };
  }
  return undefined;
}

function botMessages(chat: ChatRecord): StoredMessage[] {
  return [...chat.messages.values()].filter((m) => m.fromBot && !m.deleted).reverse();
}

export function latestBotMessage(chat: ChatRecord): StoredMessage | undefined {
  return botMessages(chat)[0];
}

export function visibleButtons(chat: ChatRecord): string[] {
  return botMessages(chat).flatMap((m) =>
    inlineButtons(m.message.reply_markup).map((b) => JSON.stringify(b.text)),
  );
}

export function visibleData(chat: ChatRecord): string[] {
  return botMessages(chat).flatMap((m) =>
    inlineButtons(m.message.reply_markup).flatMap((b) =>
      "callback_data" in b ? [JSON.stringify(b.callback_data)] : [],
    ),
  );
}
