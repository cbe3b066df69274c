// Simulated groups: a creator, admins and plain members, the bot's own status, and the service
// messages and chat_member updates that joining, leaving and promotion produce.
import { actionOf, type UserAction } from "./actions.ts";
import type { ChatView } from "./chat-view.ts";
import { FakeTelegramError } from "./errors.ts";
import { chatMember } from "./methods/chats.ts";
import { type KitContext, unixNow } from "./methods/context.ts";
import type { MemberStatus } from "./state.ts";
import type { Chat, ChatRef, TgMessage, User } from "./types.ts";
import { postUpdate, postUserMessage } from "./updates.ts";
import { type MessageMatch, type WaitForMessageOptions, waitForMessage } from "./waits.ts";

/** Anyone with a Telegram user: a simulated user, or a plain User object. */
export type Person = { readonly user: User };

export interface CreateGroupOptions {
  /** Default: a supergroup id like -1002000000001. */
  id?: number;
  title: string;
  /** Default "supergroup" (what Telegram makes of groups today). */
  type?: "supergroup" | "group";
  username?: string;
  /** Default: the first admin. */
  creator?: Person;
  admins?: Person[];
  members?: Person[];
  /** The bot's status in the group. Default "administrator". */
  bot?: "administrator" | "member" | "left" | "kicked";
}

export class SimulatedGroup {
  readonly id: number;
  readonly chatId: number;

  constructor(
    private readonly ctx: KitContext,
    readonly chat: Chat,
  ) {
    this.id = chat.id;
    this.chatId = chat.id;
  }

  get title(): string {
    return this.chat.title ?? "";
  }

  status(person: Person | number): MemberStatus {
    return this.ctx.state.memberStatus(
      this.id,
      typeof person === "number" ? person : person.user.id,
    );
  }

  /** Everyone the group knows, with their status (the bot included). */
  members(): { userId: number; status: MemberStatus }[] {
    return [...this.ctx.state.requireChat(this.id).members].map(([userId, status]) => ({
      userId,
      status,
    }));
  }

  /** A user joins: a new_chat_members service message, and chat_member if the bot allowed it. */
  join(person: Person): UserAction {
    const posted = postUserMessage(this.ctx, this.record(), person.user, {
      new_chat_members: [person.user],
    });
    this.change(person.user, person.user, "member");
    return actionOf(posted.queued);
  }

  /** A user leaves: a left_chat_member service message, and chat_member if the bot allowed it. */
  leave(person: Person): UserAction {
    const posted = postUserMessage(this.ctx, this.record(), person.user, {
      left_chat_member: person.user,
    });
    this.change(person.user, person.user, "left");
    return actionOf(posted.queued);
  }

  /** Makes a member an administrator (chat_member update, delivered only if allowed_updates has it). */
  promote(person: Person): UserAction {
    return this.change(person.user, this.creator(), "administrator");
  }

  demote(person: Person): UserAction {
    return this.change(person.user, this.creator(), "member");
  }

  /** Changes the bot's own status: the bot gets a my_chat_member update. */
  setBotStatus(status: "administrator" | "member" | "left" | "kicked"): UserAction {
    const { state } = this.ctx;
    const old = state.memberStatus(this.id, state.bot.id);
    state.requireChat(this.id).members.set(state.bot.id, status);
    const queued = postUpdate(
      this.ctx,
      {
        my_chat_member: {
          chat: this.chat,
          from: this.creator(),
          date: unixNow(),
          old_chat_member: chatMember(state.botUser, old),
          new_chat_member: chatMember(state.botUser, status),
        },
      },
      this.id,
    );
    return actionOf(queued);
  }

  /**
   * Upgrades a basic group to a supergroup, as Telegram does (a creator's action; a supergroup
   * cannot be upgraded again): a new chat with a new id and the same members. The old group gets
   * a service message with `migrate_to_chat_id`, the new one a message with `migrate_from_chat_id`,
   * both from the user who upgraded; after that, every Bot API call aimed at the old id answers
   * 400 "group chat was upgraded to a supergroup chat" with `parameters.migrate_to_chat_id`.
   */
  upgradeToSupergroup(by?: Person): {
    supergroup: SimulatedGroup;
    migrateTo: UserAction;
    migrateFrom: UserAction;
  } {
    const { state } = this.ctx;
    const record = this.record();
    if (this.chat.type !== "group")
      throw new FakeTelegramError(`chat ${this.id} is a ${this.chat.type}: only groups upgrade`);
    if (record.migratedTo !== undefined)
      throw new FakeTelegramError(`chat ${this.id} was already upgraded`);
    const actor = by?.user ?? this.creator();
    if (!state.isAdmin(this.id, actor.id) && actor.id !== state.bot.id)
      throw new FakeTelegramError(`user ${actor.id} is not an admin of chat ${this.id}`);
    const chat: Chat = { id: state.allocateSupergroupId(), type: "supergroup", title: this.title };
    const upgraded = state.addChat(chat);
    for (const [userId, status] of record.members) upgraded.members.set(userId, status);
    const migrateTo = postUserMessage(this.ctx, record, actor, { migrate_to_chat_id: chat.id });
    record.migratedTo = chat.id;
    const migrateFrom = postUserMessage(this.ctx, upgraded, actor, {
      migrate_from_chat_id: this.id,
    });
    return {
      supergroup: new SimulatedGroup(this.ctx, chat),
      migrateTo: actionOf(migrateTo.queued),
      migrateFrom: actionOf(migrateFrom.queued),
    };
  }

  view(): ChatView {
    return this.ctx.state.view(this.id);
  }

  lastMessage(): TgMessage | undefined {
    return this.view().lastBotMessage;
  }

  /** The next bot message in the group since the last simulated-user action here. */
  waitForMessage(match?: MessageMatch, options: WaitForMessageOptions = {}): Promise<TgMessage> {
    return waitForMessage(this.ctx.state, this.id, match, options);
  }

  private change(user: User, actor: User, status: MemberStatus): UserAction {
    const record = this.record();
    const old = record.members.get(user.id) ?? "left";
    record.members.set(user.id, status);
    const queued = postUpdate(
      this.ctx,
      {
        chat_member: {
          chat: this.chat,
          from: actor,
          date: unixNow(),
          old_chat_member: chatMember(user, old),
          new_chat_member: chatMember(user, status),
        },
      },
      this.id,
    );
    return actionOf(queued);
  }

  private creator(): User {
    const record = this.record();
    for (const [userId, status] of record.members) {
      const user = this.ctx.state.users.get(userId)?.user;
      if (status === "creator" && user) return user;
    }
    return this.ctx.state.botUser;
  }

  private record(): ReturnType<KitContext["state"]["requireChat"]> {
    return this.ctx.state.requireChat(this.id);
  }
}

/** Builds the group chat and its member list. */
export function createGroupChat(ctx: KitContext, options: CreateGroupOptions): SimulatedGroup {
  const { state } = ctx;
  const type = options.type ?? "supergroup";
  const id =
    options.id ??
    (type === "supergroup" ? state.allocateSupergroupId() : state.allocateBasicGroupId());
  if (state.chats.has(id)) throw new FakeTelegramError(`chat ${id} already exists`);
  const chat: Chat =
    type === "supergroup"
      ? {
          id,
          type,
          title: options.title,
          ...(options.username ? { username: options.username } : {}),
        }
      : { id, type, title: options.title };
  const record = state.addChat(chat);
  const admins = options.admins ?? [];
  const creator = options.creator ?? admins[0];
  for (const person of [...(options.members ?? []), ...admins, ...(creator ? [creator] : [])]) {
    if (!state.users.has(person.user.id))
      throw new FakeTelegramError(`user ${person.user.id} was not created with createUser`);
  }
  for (const person of options.members ?? []) record.members.set(person.user.id, "member");
  for (const person of admins) record.members.set(person.user.id, "administrator");
  if (creator) record.members.set(creator.user.id, "creator");
  record.members.set(state.bot.id, options.bot ?? "administrator");
  return new SimulatedGroup(ctx, chat);
}

export type { ChatRef };
