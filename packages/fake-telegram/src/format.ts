// Message text the way Telegram stores it: parse_mode markup turned into entities, surrounding
// whitespace trimmed, then the 1-4096 character limit (UTF-16 units, after parsing) applied;
// captions alike, with 0-1024.
import { badRequest } from "./errors.ts";
import type { MessageEntity } from "./types.ts";
import { type FormattedText } from "./format-common.ts";
import { parseHtml } from "./format-html.ts";
import { parseMarkdown, parseMarkdownV2 } from "./format-markdown.ts";

export const MAX_TEXT_LENGTH = 4096;
export const MAX_CAPTION_LENGTH = 1024;

export type { FormattedText };

/** Parses `text` with `parse_mode` (or explicit `entities`), trims it and checks the limits. */
export function formatMessageText(
  raw: string,
  parseMode: string,
  explicit: unknown,
): FormattedText {
  if (raw === "") throw badRequest("message text is empty");
  const parsed = parseText(raw, parseMode, explicit);
  const formatted = trimFormatted(parsed);
  if (formatted.text === "") throw badRequest("message text is empty");
  if (formatted.text.length > MAX_TEXT_LENGTH) throw badRequest("message is too long");
  formatted.entities.push(...detectEntities(formatted.text, formatted.entities));
  formatted.entities.sort((a, b) => a.offset - b.offset || b.length - a.length);
  return formatted;
}

/**
 * A media caption: parsed and trimmed like a text, but it may be empty (no caption) and holds at
 * most 1024 characters after parsing, else "message caption is too long".
 */
export function formatCaption(raw: string, parseMode: string, explicit: unknown): FormattedText {
  if (raw === "") return { text: "", entities: [] };
  const formatted = trimFormatted(parseText(raw, parseMode, explicit));
  if (formatted.text.length > MAX_CAPTION_LENGTH) throw badRequest("message caption is too long");
  formatted.entities.push(...detectEntities(formatted.text, formatted.entities));
  formatted.entities.sort((a, b) => a.offset - b.offset || b.length - a.length);
  return formatted;
}

function parseText(raw: string, parseMode: string, explicit: unknown): FormattedText {
  const mode = parseMode.trim().toLowerCase();
  if (mode === "html") return parseHtml(raw);
  if (mode === "markdownv2") return parseMarkdownV2(raw);
  if (mode === "markdown") return parseMarkdown(raw);
  if (mode !== "") throw badRequest(`unsupported parse_mode`);
  if (Array.isArray(explicit)) return { text: raw, entities: explicit as MessageEntity[] };
  return { text: raw, entities: [] };
}

function trimFormatted({ text, entities }: FormattedText): FormattedText {
  const start = text.length - text.trimStart().length;
  const trimmed = text.trim();
  const end = start + trimmed.length;
  const kept: MessageEntity[] = [];
  for (const entity of entities) {
    const from = Math.max(entity.offset, start);
    const to = Math.min(entity.offset + entity.length, end);
    if (to > from) kept.push({ ...entity, offset: from - start, length: to - from });
  }
  return { text: trimmed, entities: kept };
}

const AUTO_ENTITY =
  /(^|[\s(])(\/[a-zA-Z0-9_]{1,32}(?:@[a-zA-Z0-9_]{3,32})?|@[a-zA-Z0-9_]{5,32}|https?:\/\/[^\s]+)/g;

/**
 * The entities Telegram finds by itself in any text: bot commands, @mentions and URLs. Ones that
 * overlap an entity already there (from markup) are left out.
 */
export function detectEntities(text: string, existing: MessageEntity[] = []): MessageEntity[] {
  const found: MessageEntity[] = [];
  for (const match of text.matchAll(AUTO_ENTITY)) {
    const token = match[2] ?? "";
    const offset = (match.index ?? 0) + (match[1]?.length ?? 0);
    const type = token.startsWith("/") ? "bot_command" : token.startsWith("@") ? "mention" : "url";
    const overlaps = existing.some(
      (e) => offset < e.offset + e.length && e.offset < offset + token.length,
    );
    if (!overlaps) found.push({ type, offset, length: token.length } as MessageEntity);
  }
  return found;
}
