// reply_markup as the Bot API checks it: the JSON shape, the one action each inline button needs,
// callback_data of 1-64 bytes, and a cap on the number of buttons.
import type { InlineKeyboardButton } from "@grammyjs/types";
import { type Args, utf8Length } from "./args.ts";
import { badRequest } from "./errors.ts";
import { type ForceReply, readForceReply } from "./force-reply.ts";
import type { InlineKeyboardMarkup } from "./types.ts";

export const MAX_CALLBACK_DATA_BYTES = 64;
export const MAX_BUTTONS = 100;

export interface ParsedMarkup {
  /** The inline keyboard, attached to the message. */
  inline?: InlineKeyboardMarkup;
  /** A custom reply keyboard shown to the user (rows of button labels). */
  keyboard?: string[][];
  /** remove_keyboard: the custom keyboard goes away. */
  removeKeyboard?: boolean;
  /** force_reply: the clients open a reply to the message. */
  forceReply?: ForceReply;
}

/** Reads and checks `reply_markup`; `undefined` when there is none. */
export function readReplyMarkup(args: Args): ParsedMarkup | undefined {
  const value = args.json("reply_markup", "can't parse reply keyboard markup JSON object");
  if (value === undefined) return undefined;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw badRequest("object expected as reply markup");
  }
  const markup = value as Record<string, unknown>;
  if ("inline_keyboard" in markup) return { inline: readInlineKeyboard(markup.inline_keyboard) };
  if ("keyboard" in markup) return { keyboard: readKeyboard(markup.keyboard) };
  if (markup.remove_keyboard === true) return { removeKeyboard: true };
  const forceReply = readForceReply(markup);
  return forceReply ? { forceReply } : {};
}

function readInlineKeyboard(rows: unknown): InlineKeyboardMarkup | undefined {
  if (!Array.isArray(rows))
    throw badRequest(`field "inline_keyboard" of the InlineKeyboardMarkup must be an Array`);
  const keyboard: InlineKeyboardButton[][] = [];
  let count = 0;
  for (const row of rows) {
    if (!Array.isArray(row)) {
      throw badRequest(
        `field "inline_keyboard" of the InlineKeyboardMarkup must be an Array of Arrays`,
      );
    }
    keyboard.push(row.map((button) => readInlineButton(button)));
    count += row.length;
  }
  if (count > MAX_BUTTONS) throw badRequest("reply markup is too long");
  return count === 0 ? undefined : { inline_keyboard: keyboard };
}

function readInlineButton(button: unknown): InlineKeyboardButton {
  const fail = (detail: string): Error =>
    badRequest(`can't parse inline keyboard button: ${detail}`);
  if (typeof button !== "object" || button === null || Array.isArray(button)) {
    throw fail("InlineKeyboardButton must be an Object");
  }
  const b = button as Record<string, unknown>;
  if (!("text" in b)) throw fail(`Can't find field "text"`);
  if (typeof b.text !== "string") throw fail(`Field "text" must be of type String`);
  if (typeof b.url === "string" && b.url !== "") {
    if (!isButtonUrl(b.url)) throw badRequest("BUTTON_URL_INVALID");
    return b as unknown as InlineKeyboardButton;
  }
  if (typeof b.callback_data === "string" && b.callback_data !== "") {
    if (utf8Length(b.callback_data) > MAX_CALLBACK_DATA_BYTES)
      throw badRequest("BUTTON_DATA_INVALID");
    return b as unknown as InlineKeyboardButton;
  }
  const otherActions = [
    "callback_game",
    "pay",
    "switch_inline_query",
    "switch_inline_query_current_chat",
    "switch_inline_query_chosen_chat",
    "login_url",
    "web_app",
    "copy_text",
  ];
  if (otherActions.some((key) => key in b)) return b as unknown as InlineKeyboardButton;
  throw fail("Text buttons are unallowed in the inline keyboard");
}

function isButtonUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return ["http:", "https:", "tg:"].includes(parsed.protocol);
  } catch {
    return false;
  }
}

function readKeyboard(rows: unknown): string[][] {
  if (!Array.isArray(rows))
    throw badRequest(`field "keyboard" of the ReplyKeyboardMarkup must be an Array`);
  return rows.map((row) => {
    if (!Array.isArray(row))
      throw badRequest(`field "keyboard" of the ReplyKeyboardMarkup must be an Array of Arrays`);
    return row.map((button: unknown) => {
      if (typeof button === "string") return button;
      const text = (button as { text?: unknown } | null)?.text;
      if (typeof text !== "string")
        throw badRequest(`can't parse keyboard button: Field "text" must be of type String`);
      return text;
    });
  });
}

/** Every button of an inline keyboard, row by row. */
export function inlineButtons(markup: InlineKeyboardMarkup | undefined): InlineKeyboardButton[] {
  return markup ? markup.inline_keyboard.flat() : [];
}
