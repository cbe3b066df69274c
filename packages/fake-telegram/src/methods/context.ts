// What a method handler works with, and the checks most of them share (which chat, may the bot
// write there, which message).
import type { Args } from "../args.ts";
import type { LongPoller } from "../delivery/polling.ts";
import type { UpdateQueue } from "../delivery/queue.ts";
import type { WebhookDelivery } from "../delivery/webhook.ts";
import { badRequest, BotApiError, forbidden } from "../errors.ts";
import type { FloodControl } from "../flood.ts";
import type { ChatRecord, StoredMessage, TelegramState } from "../state.ts";

export interface KitSettings {
  callbackQueryTimeoutMs: number;
  preCheckoutTimeoutMs: number;
  /** Telegram answers 429 (retry after 1) to a second setWebhook with a URL within a second. */
  setWebhookRateLimit: boolean;
}

export interface KitContext {
  state: TelegramState;
  queue: UpdateQueue;
  webhook: WebhookDelivery;
  poller: LongPoller;
  settings: KitSettings;
  /** Opt-in flood control (429 when the bot sends too fast). */
  flood: FloodControl | undefined;
  /** When setWebhook with a URL last ran (for its once-a-second limit). */
  lastSetWebhookAt: number;
}

export interface CallInfo {
  /** Aborts when the client goes away (ends a long poll). */
  signal: AbortSignal;
}

export type MethodHandler = (ctx: KitContext, args: Args, call: CallInfo) => unknown;

/** A result that the Bot API sends with a `description` too ("Webhook was set"). */
export class Described {
  constructor(
    readonly result: unknown,
    readonly description: string,
  ) {}
}

export const unixNow = (): number => Math.floor(Date.now() / 1000);

/** The chat named by `chat_id` (an id or "@username"): "chat_id is empty", "chat not found". */
export function resolveChat(ctx: KitContext, args: Args, name = "chat_id"): ChatRecord {
  const raw = args.str(name).trim();
  if (raw === "") throw badRequest("chat_id is empty");
  if (raw.startsWith("@")) {
    const username = raw.slice(1).toLowerCase();
    for (const chat of ctx.state.chats.values()) {
      if (chat.chat.username?.toLowerCase() === username) return chat;
    }
    throw badRequest("chat not found");
  }
  const chat = /^-?\d+$/.test(raw) ? ctx.state.chats.get(Number(raw)) : undefined;
  if (!chat) throw badRequest("chat not found");
  if (chat.migratedTo !== undefined) {
    throw new BotApiError(400, "Bad Request: group chat was upgraded to a supergroup chat", {
      migrate_to_chat_id: chat.migratedTo,
    });
  }
  return chat;
}

/** The chat id a call aims at, for the recorder and fault rules (no errors here). */
export function targetChatId(args: Args): number | undefined {
  const raw = args.str("chat_id").trim();
  return /^-?\d+$/.test(raw) ? Number(raw) : undefined;
}

/** May the bot post in this chat? The 403s Telegram gives when it may not. */
export function assertCanWrite(ctx: KitContext, chat: ChatRecord): void {
  if (chat.chat.type === "private") {
    const user = ctx.state.users.get(chat.chat.id);
    if (user?.blockedBot) throw forbidden("bot was blocked by the user");
    if (!user?.startedBot) throw forbidden("bot can't initiate conversation with a user");
    return;
  }
  const kind = chat.chat.type === "supergroup" ? "supergroup chat" : "group chat";
  const status = ctx.state.memberStatus(chat.chat.id, ctx.state.bot.id);
  if (status === "kicked") throw forbidden(`bot was kicked from the ${kind}`);
  if (status === "left") throw forbidden(`bot is not a member of the ${kind}`);
}

/** A message of the chat by `message_id`: "message identifier is not specified" / "<what> not found". */
export function findMessage(chat: ChatRecord, args: Args, what: string): StoredMessage {
  const messageId = args.int("message_id", 0);
  if (messageId <= 0) throw badRequest("message identifier is not specified");
  const stored = chat.messages.get(messageId);
  if (!stored || stored.deleted) throw badRequest(`${what} not found`);
  return stored;
}

/** reply_to_message_id or reply_parameters.message_id, checked like Telegram checks it. */
export function replyTarget(chat: ChatRecord, args: Args): StoredMessage | undefined {
  const parameters = args.json("reply_parameters", "can't parse reply parameters JSON object") as
    { message_id?: number; allow_sending_without_reply?: boolean } | undefined;
  const messageId = parameters?.message_id ?? args.int("reply_to_message_id", 0);
  if (!messageId) return undefined;
  const stored = chat.messages.get(messageId);
  if (stored && !stored.deleted) return stored;
  if (parameters?.allow_sending_without_reply || args.bool("allow_sending_without_reply"))
    return undefined;
  throw badRequest("message to be replied not found");
}

/** Counts a sending call against the (opt-in) flood limits: 429 with retry_after when over. */
export function checkFlood(ctx: KitContext, chat: ChatRecord, method: string): void {
  const error = ctx.flood?.check(method, chat.chat.id, chat.chat.type !== "private");
  if (error) throw error;
}
