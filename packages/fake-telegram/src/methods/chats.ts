// getChat, getChatAdministrators, getChatMember, getChatMemberCount, leaveChat.
import type { ChatMember } from "@grammyjs/types";
import { badRequest, forbidden } from "../errors.ts";
import type { ChatRecord, MemberStatus, TelegramState } from "../state.ts";
import type { User } from "../types.ts";
import { type KitContext, type MethodHandler, resolveChat } from "./context.ts";

/** A ChatMember object for a status, with the rights a typical admin has. */
export function chatMember(user: User, status: MemberStatus): ChatMember {
  switch (status) {
    case "creator":
      return { status, user, is_anonymous: false };
    case "administrator":
      return {
        status,
        user,
        can_be_edited: false,
        is_anonymous: false,
        can_manage_chat: true,
        can_delete_messages: true,
        can_manage_video_chats: true,
        can_restrict_members: true,
        can_promote_members: false,
        can_change_info: true,
        can_invite_users: true,
        can_post_stories: false,
        can_edit_stories: false,
        can_delete_stories: false,
        can_pin_messages: true,
        can_send_welcome_messages: false,
      };
    case "member":
      return { status, user };
    case "left":
      return { status, user };
    case "kicked":
      return { status, user, until_date: 0 };
  }
}

function userById(state: TelegramState, userId: number): User | undefined {
  return userId === state.bot.id ? state.botUser : state.users.get(userId)?.user;
}

/** The bot has to be in a group to look inside it. */
function assertBotInGroup(ctx: KitContext, chat: ChatRecord): void {
  if (chat.chat.type === "private") return;
  const status = ctx.state.memberStatus(chat.chat.id, ctx.state.bot.id);
  const kind = chat.chat.type === "supergroup" ? "supergroup chat" : "group chat";
  if (status === "kicked") throw forbidden(`bot was kicked from the ${kind}`);
  if (status === "left") throw forbidden(`bot is not a member of the ${kind}`);
}

export const getChat: MethodHandler = (ctx, args) => {
  const chat = resolveChat(ctx, args);
  assertBotInGroup(ctx, chat);
  return { ...chat.chat, accent_color_id: 0, max_reaction_count: 11 };
};

export const getChatAdministrators: MethodHandler = (ctx, args) => {
  const chat = resolveChat(ctx, args);
  if (chat.chat.type === "private")
    throw badRequest("there are no administrators in the private chat");
  assertBotInGroup(ctx, chat);
  const admins: ChatMember[] = [];
  for (const wanted of ["creator", "administrator"] as const) {
    for (const [userId, status] of chat.members) {
      const user = userById(ctx.state, userId);
      if (status === wanted && user) admins.push(chatMember(user, status));
    }
  }
  return admins;
};

export const getChatMember: MethodHandler = (ctx, args) => {
  const chat = resolveChat(ctx, args);
  const userId = args.userId();
  assertBotInGroup(ctx, chat);
  const user = userById(ctx.state, userId);
  if (!user) throw badRequest("user not found");
  if (chat.chat.type === "private") {
    return chatMember(
      user,
      userId === chat.chat.id || userId === ctx.state.bot.id ? "member" : "left",
    );
  }
  return chatMember(user, ctx.state.memberStatus(chat.chat.id, userId));
};

export const getChatMemberCount: MethodHandler = (ctx, args) => {
  const chat = resolveChat(ctx, args);
  if (chat.chat.type === "private") return 2;
  assertBotInGroup(ctx, chat);
  return [...chat.members.values()].filter((s) => s !== "left" && s !== "kicked").length;
};

export const leaveChat: MethodHandler = (ctx, args) => {
  const chat = resolveChat(ctx, args);
  if (chat.chat.type === "private")
    throw badRequest("chat member status can't be changed in private chats");
  assertBotInGroup(ctx, chat);
  chat.members.set(ctx.state.bot.id, "left");
  return true;
};
