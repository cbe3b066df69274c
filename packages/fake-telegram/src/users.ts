// Simulated users: they type, press inline buttons (by label or data), pay invoices, join and
// leave groups and block the bot. Each action becomes a real update in the bot's queue.
import type { InlineKeyboardButton } from "@grammyjs/types";
import type { ChatView } from "./chat-view.ts";
import { actionOf, type UserAction } from "./actions.ts";
import { ButtonNotFoundError, FakeTelegramError, WaitTimeoutError } from "./errors.ts";
import type { SimulatedGroup } from "./groups.ts";
import { findButton, latestBotMessage, visibleButtons, visibleData } from "./buttons.ts";
import { type KitContext, unixNow } from "./methods/context.ts";
import { shallow } from "./methods/messages.ts";
import { forwardMessage } from "./forward.ts";
import { payInvoice, payInvoiceLink, type PayOptions, type PaymentResult } from "./pay.ts";
import type { CallbackAnswer, ChatRecord, StoredMessage } from "./state.ts";
import { type ChatRef, chatIdOf, type TgMessage, type User } from "./types.ts";
import { MAX_CAPTION_LENGTH, MAX_TEXT_LENGTH } from "./format.ts";
import {
  documentContent,
  photoContent,
  postUpdate,
  postUserMessage,
  textContent,
} from "./updates.ts";
import {
  type MessageMatch,
  type WaitForMessageOptions,
  waitForMessage,
  waitForState,
} from "./waits.ts";

export type { UserAction };

export interface CreateUserOptions {
  /** Default: the next free id above 7 000 000 000 (ids past 2^32, like real ones). */
  id?: number;
  firstName?: string;
  lastName?: string;
  username?: string;
  /** IETF tag the bot sees in `from.language_code`, e.g. "en" or "zh-hans". */
  languageCode?: string;
  isPremium?: boolean;
}

export interface SentMessage extends UserAction {
  message: TgMessage;
}

export interface ButtonPress extends UserAction {
  callbackQueryId: string;
  data: string;
  /** The message whose button was pressed, as the user saw it. */
  message: TgMessage;
  /** The bot's answerCallbackQuery, once it comes. */
  answered(timeoutMs?: number): Promise<CallbackAnswer>;
}

export interface Where {
  /** The chat to act in: a group (or its id). Default: the user's private chat with the bot. */
  in?: ChatRef;
}

export interface PressOptions extends Where {
  /** Look for the button on this message only (default: newest bot message that has it). */
  messageId?: number;
}

export class SimulatedUser {
  readonly id: number;
  /** The private chat with the bot has the user's id. */
  readonly chatId: number;

  constructor(
    private readonly ctx: KitContext,
    readonly user: User,
  ) {
    this.id = user.id;
    this.chatId = user.id;
  }

  /**
   * Types a message (text or a command such as "/start" or "/stock@bot SKU +5"); Telegram's
   * clients send no text over 4096 characters, so neither does this.
   */
  async send(text: string, options: Where & { replyTo?: number } = {}): Promise<SentMessage> {
    if ([...text].length > MAX_TEXT_LENGTH)
      throw new FakeTelegramError(`a message holds at most ${MAX_TEXT_LENGTH} characters`);
    const chat = this.chatFor(options.in);
    const replied = options.replyTo !== undefined ? chat.messages.get(options.replyTo) : undefined;
    if (options.replyTo !== undefined && (!replied || replied.deleted)) {
      throw new FakeTelegramError(`message ${options.replyTo} is not in chat ${chat.chat.id}`);
    }
    if (chat.chat.type === "private") this.ctx.state.users.get(this.id)!.startedBot = true;
    this.ctx.state.markUserAction(chat.chat.id);
    const posted = postUserMessage(
      this.ctx,
      chat,
      this.user,
      textContent(text, replied && shallow(replied.message)),
    );
    return { ...actionOf(posted.queued), message: structuredClone(posted.stored.message) };
  }

  /**
   * Sends a photo, with an optional caption (commands in it are entities, as in a text): the
   * bot receives the photo's sizes, each with a file_id it may send again.
   */
  async sendPhoto(
    options: Where & { caption?: string; replyTo?: number } = {},
  ): Promise<SentMessage> {
    const chat = this.chatFor(options.in);
    const replied = options.replyTo !== undefined ? chat.messages.get(options.replyTo) : undefined;
    if (options.replyTo !== undefined && (!replied || replied.deleted)) {
      throw new FakeTelegramError(`message ${options.replyTo} is not in chat ${chat.chat.id}`);
    }
    if ([...(options.caption ?? "")].length > MAX_CAPTION_LENGTH)
      throw new FakeTelegramError(`a caption holds at most ${MAX_CAPTION_LENGTH} characters`);
    if (chat.chat.type === "private") this.ctx.state.users.get(this.id)!.startedBot = true;
    this.ctx.state.markUserAction(chat.chat.id);
    const photo = this.ctx.state.photos.create("user");
    const posted = postUserMessage(
      this.ctx,
      chat,
      this.user,
      photoContent(photo.sizes, options.caption, replied && shallow(replied.message)),
    );
    return { ...actionOf(posted.queued), message: structuredClone(posted.stored.message) };
  }

  /**
   * Sends a file as a document, with an optional caption (commands in it are entities): the bot
   * receives its file_id, name, MIME type and size, and reads it with getFile and a download.
   */
  async sendDocument(
    options: Where & {
      fileName: string;
      content: string | Buffer;
      mimeType?: string;
      caption?: string;
    },
  ): Promise<SentMessage> {
    const chat = this.chatFor(options.in);
    if ([...(options.caption ?? "")].length > MAX_CAPTION_LENGTH)
      throw new FakeTelegramError(`a caption holds at most ${MAX_CAPTION_LENGTH} characters`);
    if (chat.chat.type === "private") this.ctx.state.users.get(this.id)!.startedBot = true;
    this.ctx.state.markUserAction(chat.chat.id);
    const content =
      typeof options.content === "string" ? Buffer.from(options.content, "utf8") : options.content;
    const document = this.ctx.state.documents.create(options.fileName, content, options.mimeType);
    const posted = postUserMessage(
      this.ctx,
      chat,
      this.user,
      documentContent(document, options.caption),
    );
    return { ...actionOf(posted.queued), message: structuredClone(posted.stored.message) };
  }

  /** Presses the inline button with this label (exact text, or a pattern). Fails if there is none. */
  async press(label: string | RegExp, options: PressOptions = {}): Promise<ButtonPress> {
    const chat = this.chatFor(options.in);
    const matches = (b: InlineKeyboardButton): boolean =>
      typeof label === "string" ? b.text.trim() === label.trim() : label.test(b.text);
    const found = findButton(chat, matches, options.messageId);
    if (!found)
      throw new ButtonNotFoundError(
        chat.chat.id,
        `labelled ${JSON.stringify(String(label))}`,
        visibleButtons(chat),
      );
    const { button, stored } = found;
    if ("callback_data" in button) return this.emitCallback(chat, stored, button.callback_data);
    if ("pay" in button)
      throw new FakeTelegramError(`"${button.text}" is a Pay button: use user.pay() instead`);
    const kind = Object.keys(button).find((k) => k !== "text") ?? "no";
    throw new FakeTelegramError(
      `"${button.text}" is a ${kind} button: pressing it sends the bot nothing`,
    );
  }

  /** Presses the inline button carrying this callback_data. Fails if no visible message has it. */
  async pressData(
    data: string,
    options: PressOptions & { force?: boolean } = {},
  ): Promise<ButtonPress> {
    const chat = this.chatFor(options.in);
    const found = findButton(
      chat,
      (b) => "callback_data" in b && b.callback_data === data,
      options.messageId,
    );
    if (found) return this.emitCallback(chat, found.stored, data);
    if (!options.force)
      throw new ButtonNotFoundError(
        chat.chat.id,
        `with data ${JSON.stringify(data)}`,
        visibleData(chat),
      );
    // A modified client can send any data for any bot message: callback data is untrusted input.
    const target =
      options.messageId !== undefined
        ? chat.messages.get(options.messageId)
        : latestBotMessage(chat);
    if (!target)
      throw new FakeTelegramError(
        `no bot message in chat ${chat.chat.id} to attach a forced press to`,
      );
    return this.emitCallback(chat, target, data);
  }

  /** Taps a button of the custom reply keyboard the bot showed: sends its label as a message. */
  async tapKeyboard(label: string, options: Where = {}): Promise<SentMessage> {
    const chat = this.chatFor(options.in);
    const labels = chat.keyboard?.flat() ?? [];
    if (!labels.includes(label))
      throw new ButtonNotFoundError(
        chat.chat.id,
        `labelled ${JSON.stringify(label)} on the reply keyboard`,
        labels,
      );
    return this.send(label, options);
  }

  /**
   * Pays an invoice (default: the newest unpaid one in the chat): a pre_checkout_query, then the
   * bot has `preCheckoutTimeoutMs` (10 s) to answer; if it says ok, a successful_payment message.
   */
  pay(options: PayOptions & Where = {}): Promise<PaymentResult> {
    return payInvoice(this.ctx, this.user, this.chatFor(options.in), options);
  }

  /**
   * Pays an invoice link (createInvoiceLink's), as a Mini App's openInvoice does: pre-checkout,
   * then the successful_payment in the private chat with the bot.
   */
  payLink(url: string, options: Omit<PayOptions, "invoice"> = {}): Promise<PaymentResult> {
    return payInvoiceLink(this.ctx, this.user, this.chatFor(undefined), url, options);
  }

  /**
   * Forwards message `messageId` of chat `from` (default: the private chat with the bot) to chat
   * `to`. A forwarded invoice stays payable there only if it was sent without start_parameter.
   */
  async forward(messageId: number, options: { from?: ChatRef; to: ChatRef }): Promise<SentMessage> {
    const from = this.chatFor(options.from);
    const to = this.chatFor(options.to);
    this.ctx.state.markUserAction(to.chat.id);
    const posted = forwardMessage(this.ctx, this.user, from, to, messageId);
    return { ...actionOf(posted.queued), message: structuredClone(posted.stored.message) };
  }

  /** Joins a group: a new_chat_members message (and chat_member, if the bot allowed it). */
  async joinGroup(group: SimulatedGroup): Promise<UserAction> {
    return group.join(this);
  }

  /** Leaves a group: a left_chat_member message (and chat_member, if the bot allowed it). */
  async leaveGroup(group: SimulatedGroup): Promise<UserAction> {
    return group.leave(this);
  }

  /** Blocks the bot: it gets my_chat_member (kicked) and 403s when writing to this user. */
  async block(): Promise<UserAction> {
    return this.setBlocked(true);
  }

  async unblock(): Promise<UserAction> {
    return this.setBlocked(false);
  }

  /** The private chat (or a group) as the user sees it. */
  view(where: ChatRef = this.chatId): ChatView {
    return this.ctx.state.view(chatIdOf(where));
  }

  /** The newest message from the bot in the private chat (or a group). */
  lastMessage(where: ChatRef = this.chatId): TgMessage | undefined {
    return this.view(where).lastBotMessage;
  }

  /** The next bot message in the private chat (or `in` a group) since this user's last action. */
  waitForMessage(
    match?: MessageMatch,
    options: WaitForMessageOptions & Where = {},
  ): Promise<TgMessage> {
    return waitForMessage(this.ctx.state, chatIdOf(options.in ?? this.chatId), match, options);
  }

  private chatFor(where: ChatRef | undefined): ChatRecord {
    const chatId = where === undefined ? this.chatId : chatIdOf(where);
    const chat = this.ctx.state.chats.get(chatId);
    if (!chat) throw new FakeTelegramError(`the fake Telegram has no chat ${chatId}`);
    if (chat.chat.type !== "private") {
      const status = this.ctx.state.memberStatus(chatId, this.id);
      if (status === "left" || status === "kicked") {
        throw new FakeTelegramError(
          `user ${this.id} is not a member of chat ${chatId}: join it first`,
        );
      }
    } else if (chatId === this.chatId && this.ctx.state.users.get(this.id)?.blockedBot) {
      throw new FakeTelegramError(`user ${this.id} has blocked the bot: call unblock() first`);
    }
    return chat;
  }

  private emitCallback(chat: ChatRecord, stored: StoredMessage, data: string): ButtonPress {
    const { state } = this.ctx;
    const id = state.allocateQueryId();
    state.callbackQueries.set(id, {
      id,
      from: this.user,
      chatId: chat.chat.id,
      messageId: stored.message.message_id,
      createdAt: Date.now(),
    });
    state.markUserAction(chat.chat.id);
    const message = structuredClone(stored.message);
    const queued = postUpdate(
      this.ctx,
      { callback_query: { id, from: this.user, message, chat_instance: chat.chatInstance, data } },
      chat.chat.id,
    );
    const answered = (timeoutMs = 5_000): Promise<CallbackAnswer> =>
      waitForState(
        state,
        () => state.callbackQueries.get(id)?.answer,
        timeoutMs,
        () => new WaitTimeoutError(`answerCallbackQuery for query ${id}`, timeoutMs),
      );
    return { ...actionOf(queued), callbackQueryId: id, data, message, answered };
  }

  private async setBlocked(blocked: boolean): Promise<UserAction> {
    const record = this.ctx.state.users.get(this.id)!;
    record.blockedBot = blocked;
    const bot = this.ctx.state.botUser;
    const chat = this.ctx.state.requireChat(this.chatId).chat;
    const member = { status: "member" as const, user: bot };
    const kicked = { status: "kicked" as const, user: bot, until_date: 0 };
    const queued = postUpdate(
      this.ctx,
      {
        my_chat_member: {
          chat,
          from: this.user,
          date: unixNow(),
          old_chat_member: blocked ? member : kicked,
          new_chat_member: blocked ? kicked : member,
        },
      },
      this.chatId,
    );
    return actionOf(queued);
  }
}
