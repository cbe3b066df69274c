// The Bot API methods the fake answers, by name. Telegram matches method names in any case.
import { getMe, setMyCommands, getMyCommands, deleteMyCommands, logOut, close } from "./bot.ts";
import { answerCallbackQuery } from "./callbacks.ts";
import {
  getChat,
  getChatAdministrators,
  getChatMember,
  getChatMemberCount,
  leaveChat,
} from "./chats.ts";
import type { MethodHandler } from "./context.ts";
import { editMessageCaption, editMessageMedia, sendPhoto } from "./media.ts";
import { getFile } from "./files.ts";
import {
  deleteMessage,
  editMessageReplyMarkup,
  editMessageText,
  sendChatAction,
  sendMessage,
} from "./messages.ts";
import {
  answerPreCheckoutQuery,
  getStarTransactions,
  refundStarPayment,
  sendInvoice,
} from "./payments.ts";
import { createInvoiceLink } from "./invoice-links.ts";
import { answerShippingQuery } from "./shipping.ts";
import { deleteWebhook, getUpdates, getWebhookInfo, setWebhook } from "./webhook.ts";

export const METHODS: Record<string, MethodHandler> = {
  getMe,
  logOut,
  close,
  setMyCommands,
  getMyCommands,
  deleteMyCommands,
  setWebhook,
  deleteWebhook,
  getWebhookInfo,
  getUpdates,
  sendMessage,
  sendPhoto,
  getFile,
  editMessageText,
  editMessageCaption,
  editMessageMedia,
  editMessageReplyMarkup,
  deleteMessage,
  sendChatAction,
  answerCallbackQuery,
  sendInvoice,
  createInvoiceLink,
  answerPreCheckoutQuery,
  answerShippingQuery,
  refundStarPayment,
  getStarTransactions,
  getChat,
  getChatAdministrators,
  getChatMember,
  getChatMemberCount,
  getChatMembersCount: getChatMemberCount,
  leaveChat,
};

const BY_LOWER_NAME = new Map(
  Object.entries(METHODS).map(([name, handler]) => [name.toLowerCase(), { name, handler }]),
);

/** The handler for a method name in any case, with its canonical spelling. */
export function findMethod(name: string): { name: string; handler: MethodHandler } | undefined {
  return BY_LOWER_NAME.get(name.toLowerCase());
}
