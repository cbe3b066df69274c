// getMe, setMyCommands, getMyCommands, deleteMyCommands, logOut, close.
import type { BotCommand, UserFromGetMe } from "@grammyjs/types";
import type { Args } from "../args.ts";
import { badRequest } from "../errors.ts";
import type { TelegramState } from "../state.ts";
import type { MethodHandler } from "./context.ts";

export function getMeResult(state: TelegramState): UserFromGetMe {
  const { bot } = state;
  return {
    id: bot.id,
    is_bot: true,
    first_name: bot.firstName,
    username: bot.username,
    can_join_groups: bot.canJoinGroups,
    can_read_all_group_messages: bot.canReadAllGroupMessages,
    supports_inline_queries: false,
    can_connect_to_business: false,
    has_main_web_app: false,
    has_topics_enabled: false,
    allows_users_to_create_topics: false,
    can_manage_bots: false,
    supports_join_request_queries: false,
  };
}

export const getMe: MethodHandler = (ctx) => getMeResult(ctx.state);

const commandSets = new WeakMap<TelegramState, Map<string, BotCommand[]>>();

function commandKey(args: Args): string {
  const scope = (args.json("scope", "can't parse BotCommandScope JSON object") as
    { type?: string } | undefined) ?? {
    type: "default",
  };
  return `${JSON.stringify(scope)}|${args.str("language_code")}`;
}

function commandsOf(state: TelegramState): Map<string, BotCommand[]> {
  let sets = commandSets.get(state);
  if (!sets) commandSets.set(state, (sets = new Map()));
  return sets;
}

export const setMyCommands: MethodHandler = (ctx, args) => {
  const value = args.json("commands", "can't parse commands JSON object") ?? [];
  if (!Array.isArray(value)) throw badRequest("expected an Array of BotCommand");
  if (value.length > 100) throw badRequest("BOT_COMMANDS_TOO_MUCH");
  const commands = value.map((item: unknown): BotCommand => {
    const { command, description } = (item ?? {}) as Record<string, unknown>;
    if (typeof command !== "string")
      throw badRequest(`can't parse BotCommand: Field "command" must be of type String`);
    if (typeof description !== "string") {
      throw badRequest(`can't parse BotCommand: Field "description" must be of type String`);
    }
    const name = command.startsWith("/") ? command.slice(1) : command;
    if (!/^[a-z0-9_]{1,32}$/.test(name)) throw badRequest("BOT_COMMAND_INVALID");
    if (description.trim() === "" || [...description].length > 256)
      throw badRequest("BOT_COMMAND_DESCRIPTION_INVALID");
    return { command: name, description };
  });
  commandsOf(ctx.state).set(commandKey(args), commands);
  return true;
};

export const getMyCommands: MethodHandler = (ctx, args) =>
  commandsOf(ctx.state).get(commandKey(args)) ?? [];

export const deleteMyCommands: MethodHandler = (ctx, args) => {
  commandsOf(ctx.state).delete(commandKey(args));
  return true;
};

export const logOut: MethodHandler = () => true;
export const close: MethodHandler = () => true;
