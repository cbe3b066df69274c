// The Bot API objects the fake produces, typed with @grammyjs/types (the types grammY itself uses).
import type {
  CallbackQuery,
  Chat,
  ChatMemberUpdated,
  Document,
  ForceReply,
  InlineKeyboardMarkup,
  Invoice,
  ShippingQuery,
  MessageEntity,
  MessageOrigin,
  PhotoSize,
  PreCheckoutQuery,
  RefundedPayment,
  ReplyKeyboardMarkup,
  ReplyKeyboardRemove,
  SuccessfulPayment,
  User,
  UserFromGetMe,
} from "@grammyjs/types";

export type {
  CallbackQuery,
  Chat,
  InlineKeyboardMarkup,
  Invoice,
  MessageEntity,
  PreCheckoutQuery,
  SuccessfulPayment,
  User,
  UserFromGetMe,
};

export type ChatType = "private" | "group" | "supergroup";

export type ReplyMarkup =
  InlineKeyboardMarkup | ReplyKeyboardMarkup | ReplyKeyboardRemove | ForceReply;

/** A message as the Bot API shows it: the subset of fields this fake fills in. */
export interface TgMessage {
  message_id: number;
  date: number;
  chat: Chat;
  from?: User;
  edit_date?: number;
  text?: string;
  entities?: MessageEntity[];
  /** A photo message: its sizes, widest last; `caption` and `caption_entities` go with it. */
  photo?: PhotoSize[];
  caption?: string;
  caption_entities?: MessageEntity[];
  /** A file sent as a document (getFile downloads it); `caption` goes with it. */
  document?: Document;
  reply_markup?: InlineKeyboardMarkup;
  reply_to_message?: TgMessage;
  /** Set on a forwarded copy: who sent the original, and when. */
  forward_origin?: MessageOrigin;
  invoice?: Invoice;
  successful_payment?: SuccessfulPayment;
  refunded_payment?: RefundedPayment;
  new_chat_members?: User[];
  left_chat_member?: User;
  /** Service message in a group upgraded to a supergroup: the supergroup's id. */
  migrate_to_chat_id?: number;
  /** Service message in the supergroup a group was upgraded to: the group's old id. */
  migrate_from_chat_id?: number;
}

/** An update as delivered to the bot. */
export interface TgUpdate {
  update_id: number;
  message?: TgMessage;
  edited_message?: TgMessage;
  callback_query?: Omit<CallbackQuery, "message"> & { message?: TgMessage };
  pre_checkout_query?: PreCheckoutQuery;
  shipping_query?: ShippingQuery;
  my_chat_member?: ChatMemberUpdated;
  chat_member?: ChatMemberUpdated;
}

export type UpdateType = Exclude<keyof TgUpdate, "update_id">;

/** Every update type the Bot API knows; chat_member and the reaction updates are opt-in there. */
export const ALL_UPDATE_TYPES = [
  "message",
  "edited_message",
  "channel_post",
  "edited_channel_post",
  "business_connection",
  "business_message",
  "edited_business_message",
  "deleted_business_messages",
  "message_reaction",
  "message_reaction_count",
  "inline_query",
  "chosen_inline_result",
  "callback_query",
  "shipping_query",
  "pre_checkout_query",
  "purchased_paid_media",
  "poll",
  "poll_answer",
  "my_chat_member",
  "chat_member",
  "chat_join_request",
  "chat_boost",
  "removed_chat_boost",
] as const;

export const DEFAULT_EXCLUDED_UPDATE_TYPES: readonly string[] = [
  "chat_member",
  "message_reaction",
  "message_reaction_count",
];

/** Something that names a chat: an id, or a simulated user (their private chat) or group. */
export type ChatRef = number | { readonly chatId: number };

export function chatIdOf(ref: ChatRef): number {
  return typeof ref === "number" ? ref : ref.chatId;
}
