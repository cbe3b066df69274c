// What a person looking at a chat would see: its messages, newest last, with edits applied and
// deleted ones gone, plus the inline keyboards still attached.
import { openPrompt, type ReplyPrompt } from "./force-reply.ts";
import { inlineButtons } from "./markup.ts";
import type { ChatEvent, ChatRecord, InvoiceAsks } from "./state.ts";
import type { Chat, TgMessage } from "./types.ts";

export interface ChatView {
  id: number;
  chat: Chat;
  /** Visible messages (both sides), oldest first, in their current (edited) state. */
  messages: TgMessage[];
  /** The bot's visible messages only. */
  botMessages: TgMessage[];
  /** The newest visible message from the bot. */
  lastBotMessage: TgMessage | undefined;
  /** Every change the chat went through: sent, edited and deleted messages. */
  history: ChatEvent[];
  /** Labels of the inline buttons on visible messages, newest message first. */
  buttons: string[];
  /** The custom reply keyboard the bot last showed, if any. */
  keyboard: string[][] | undefined;
  /** The bot's newest force_reply not answered yet: the reply its clients open. */
  replyPrompt: ReplyPrompt | undefined;
  /** The visible invoices with a Pay button: paid or not, and what a provider's form asks for. */
  invoices: { messageId: number; paid: boolean; asks?: InvoiceAsks }[];
}

export function chatViewOf(record: ChatRecord): ChatView {
  const visible = [...record.messages.values()].filter((m) => !m.deleted);
  const messages = visible.map((m) => structuredClone(m.message));
  const botMessages = visible.filter((m) => m.fromBot).map((m) => structuredClone(m.message));
  return {
    id: record.chat.id,
    chat: record.chat,
    messages,
    botMessages,
    lastBotMessage: botMessages.at(-1),
    history: [...record.events],
    buttons: [...botMessages]
      .reverse()
      .flatMap((m) => inlineButtons(m.reply_markup).map((b) => b.text)),
    keyboard: record.keyboard,
    replyPrompt: openPrompt(visible),
    invoices: visible.flatMap(({ message, invoice }) =>
      invoice
        ? [
            {
              messageId: message.message_id,
              paid: invoice.paidChargeId !== undefined,
              ...(invoice.asks ? { asks: { ...invoice.asks } } : {}),
            },
          ]
        : [],
    ),
  };
}
