// The web client's chat list: every simulated user (their private chat with the bot) and every
// group with its members, as a Telegram client's sidebar shows them.
import type { MemberStatus, TelegramState } from "../state.ts";
import type { User } from "../types.ts";

export interface ListedUser {
  id: number;
  name: string;
  username?: string;
  languageCode?: string;
}

export interface ListedGroup {
  id: number;
  title: string;
  members: { userId: number; name: string; status: MemberStatus }[];
}

export interface ChatList {
  bot: { id: number; username: string; name: string };
  users: ListedUser[];
  groups: ListedGroup[];
}

export function fullName(user: User): string {
  return [user.first_name, user.last_name].filter(Boolean).join(" ");
}

function nameOf(state: TelegramState, userId: number): string {
  const user = state.users.get(userId)?.user;
  return user ? fullName(user) : String(userId);
}

export function chatList(state: TelegramState): ChatList {
  const users = [...state.users.values()].map(({ user }) => ({
    id: user.id,
    name: fullName(user),
    ...(user.username ? { username: user.username } : {}),
    ...(user.language_code ? { languageCode: user.language_code } : {}),
  }));
  const groups = [...state.chats.values()]
    .filter((c) => c.chat.type !== "private" && c.migratedTo === undefined)
    .map((c) => ({
      id: c.chat.id,
      title: c.chat.title ?? "",
      members: [...c.members]
        .filter(([userId, status]) => userId !== state.bot.id && status !== "left")
        .map(([userId, status]) => ({
          userId,
          name: nameOf(state, userId),
          status,
        })),
    }));
  return {
    bot: { id: state.bot.id, username: state.bot.username, name: state.bot.firstName },
    users,
    groups,
  };
}
