// Telegram's side of the world: users, chats with their members and messages, open queries and
// payments. Ids are like Telegram's: message ids count per chat, user and chat ids pass 2^32.
import type { ShippingOption } from "@grammyjs/types";
import type { Chat, User } from "./types.ts";
import type { TgMessage } from "./types.ts";
import { chatViewOf } from "./chat-view.ts";
import { PhotoStore } from "./photos.ts";
import { DocumentStore } from "./documents.ts";
import type { ReplyPrompt } from "./force-reply.ts";

export type MemberStatus = "creator" | "administrator" | "member" | "left" | "kicked";

export interface BotIdentity {
  id: number;
  token: string;
  username: string;
  firstName: string;
  canJoinGroups: boolean;
  canReadAllGroupMessages: boolean;
}

export interface UserRecord {
  user: User;
  /** The user has written to the bot in private, so the bot may write to them. */
  startedBot: boolean;
  blockedBot: boolean;
}

export interface InvoiceRecord {
  payload: string;
  currency: string;
  totalAmount: number;
  providerToken: string;
  paidChargeId?: string;
  /**
   * What a provider invoice asks the buyer for (need_*, is_flexible, send_*_to_provider). Absent
   * for Stars: Telegram ignores those fields for XTR invoices.
   */
  asks?: InvoiceAsks;
}

export interface InvoiceAsks {
  name: boolean;
  phoneNumber: boolean;
  email: boolean;
  shippingAddress: boolean;
  /** The price depends on the shipping option: a shipping_query comes first. */
  flexible: boolean;
  phoneToProvider: boolean;
  emailToProvider: boolean;
}

/** A shipping_query sent for a flexible invoice, and the bot's answerShippingQuery. */
export interface ShippingQueryRecord {
  id: string;
  from: User;
  createdAt: number;
  answer?: {
    ok: boolean;
    options?: ShippingOption[];
    errorMessage?: string;
    at: number;
  };
  expired: boolean;
}

export interface StoredMessage {
  message: TgMessage;
  fromBot: boolean;
  deleted: boolean;
  invoice?: InvoiceRecord;
  /** The reply its force_reply asked for (force-reply.ts). */
  prompt?: ReplyPrompt;
}

/** One change to what a chat shows, in the order it happened (seq is global across chats). */
export interface ChatEvent {
  seq: number;
  kind: "sent" | "edited" | "deleted";
  by: "bot" | "user";
  at: number;
  message: TgMessage;
}

export interface ChatRecord {
  chat: Chat;
  members: Map<number, MemberStatus>;
  messages: Map<number, StoredMessage>;
  nextMessageId: number;
  events: ChatEvent[];
  /** seq of the last event before the most recent simulated-user action in this chat. */
  userCursor: number;
  /** The custom reply keyboard the bot last showed here, if any. */
  keyboard?: string[][];
  chatInstance: string;
  /** A basic group upgraded to a supergroup: the new chat's id (calls here answer 400 with it). */
  migratedTo?: number;
}

export interface CallbackAnswer {
  text?: string;
  showAlert: boolean;
  url?: string;
  at: number;
}

export interface CallbackQueryRecord {
  id: string;
  from: User;
  chatId: number;
  messageId: number;
  createdAt: number;
  answer?: CallbackAnswer;
}

export interface PreCheckoutRecord {
  id: string;
  from: User;
  chatId: number;
  messageId: number;
  createdAt: number;
  answer?: { ok: boolean; errorMessage?: string; at: number };
  expired: boolean;
}

export interface ChargeRecord {
  chargeId: string;
  providerChargeId: string;
  userId: number;
  chatId: number;
  currency: string;
  totalAmount: number;
  payload: string;
  paidAt: number;
  refundedAt?: number;
}

/**
 * One entry of the bot's Stars balance history, as getStarTransactions lists it: a user's payment
 * (in) or its refund (out), in the order they happened. A refund carries its charge's id.
 */
export interface StarLedgerEntry {
  direction: "in" | "out";
  chargeId: string;
  /** Unix time (s). */
  date: number;
}

type Listener = () => void;

export class TelegramState {
  readonly users = new Map<number, UserRecord>();
  readonly chats = new Map<number, ChatRecord>();
  readonly callbackQueries = new Map<string, CallbackQueryRecord>();
  readonly preCheckoutQueries = new Map<string, PreCheckoutRecord>();
  readonly shippingQueries = new Map<string, ShippingQueryRecord>();
  readonly charges = new Map<string, ChargeRecord>();
  /** Invoices made by createInvoiceLink, by the link's slug (`https://t.me/$<slug>`). */
  readonly invoiceLinks = new Map<string, InvoiceRecord>();
  /** The bot's Stars transactions, oldest first: Telegram's list only ever grows at the end. */
  readonly starLedger: StarLedgerEntry[] = [];
  /** Every photo sent by the bot or by users, by its file_ids. */
  readonly photos = new PhotoStore();
  /** Files users sent as documents, for getFile and downloads. */
  readonly documents = new DocumentStore();
  private seq = 0;
  private nextUserId = 7_000_000_001;
  private nextGroupId = 1;
  private nextQueryId = 1;
  private readonly listeners = new Set<Listener>();

  constructor(readonly bot: BotIdentity) {}

  get botUser(): User {
    return {
      id: this.bot.id,
      is_bot: true,
      first_name: this.bot.firstName,
      username: this.bot.username,
    };
  }

  allocateUserId(): number {
    while (this.users.has(this.nextUserId)) this.nextUserId++;
    return this.nextUserId++;
  }

  allocateSupergroupId(): number {
    let id: number;
    do id = -(1_002_000_000_000 + this.nextGroupId++);
    while (this.chats.has(id));
    return id;
  }

  allocateBasicGroupId(): number {
    let id: number;
    do id = -(4_100_000_000 + this.nextGroupId++);
    while (this.chats.has(id));
    return id;
  }

  /** Unique ids for callback and pre-checkout queries: long numeric strings, like Telegram's. */
  allocateQueryId(): string {
    return `${4_000_000_000_000_000 + this.nextQueryId++ * 7919}`;
  }

  addChat(chat: Chat): ChatRecord {
    const record: ChatRecord = {
      chat,
      members: new Map(),
      messages: new Map(),
      nextMessageId: 1,
      events: [],
      userCursor: this.seq,
      chatInstance: `${Math.abs(chat.id) * 31 + 17}`,
    };
    this.chats.set(chat.id, record);
    return record;
  }

  /** Stores a new message in the chat and returns it (message_id assigned here). */
  addMessage(
    chatId: number,
    by: "bot" | "user",
    build: (messageId: number) => TgMessage,
    invoice?: InvoiceRecord,
  ): StoredMessage {
    const chat = this.requireChat(chatId);
    const message = build(chat.nextMessageId++);
    const stored: StoredMessage = {
      message,
      fromBot: by === "bot",
      deleted: false,
      ...(invoice ? { invoice } : {}),
    };
    chat.messages.set(message.message_id, stored);
    this.recordEvent(chat, "sent", by, message);
    return stored;
  }

  recordEvent(
    chat: ChatRecord,
    kind: ChatEvent["kind"],
    by: ChatEvent["by"],
    message: TgMessage,
  ): void {
    chat.events.push({
      seq: ++this.seq,
      kind,
      by,
      at: Date.now(),
      message: structuredClone(message),
    });
    this.notify();
  }

  /** A simulated user acts in the chat: later bot messages count as replies to this action. */
  markUserAction(chatId: number): void {
    this.requireChat(chatId).userCursor = this.seq;
  }

  get currentSeq(): number {
    return this.seq;
  }

  requireChat(chatId: number): ChatRecord {
    const chat = this.chats.get(chatId);
    if (!chat) throw new Error(`the fake Telegram has no chat ${chatId}`);
    return chat;
  }

  memberStatus(chatId: number, userId: number): MemberStatus {
    return this.chats.get(chatId)?.members.get(userId) ?? "left";
  }

  isAdmin(chatId: number, userId: number): boolean {
    const status = this.memberStatus(chatId, userId);
    return status === "creator" || status === "administrator";
  }

  /** Wakes everyone waiting for a change (waitForMessage, answers to queries). */
  notify(): void {
    for (const listener of [...this.listeners]) listener();
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  view(chatId: number): ReturnType<typeof chatViewOf> {
    return chatViewOf(this.requireChat(chatId));
  }
}
