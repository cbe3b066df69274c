// parse_mode "MarkdownV2" and the legacy "Markdown", close to Telegram's rules: in MarkdownV2 every
// reserved character outside an entity marker must be escaped with a backslash.
import { byteOffset, cantParse, type FormattedText } from "./format-common.ts";
import type { MessageEntity } from "./types.ts";

const RESERVED = "_*[]()~`>#+-=|{}.!";

const NAMES: Record<string, string> = {
  bold: "Bold",
  italic: "Italic",
  underline: "Underline",
  strikethrough: "Strikethrough",
  spoiler: "Spoiler",
  code: "Code",
  pre: "Pre",
  text_link: "TextUrl",
};

interface Open {
  marker: string;
  type: string;
  offset: number;
  at: number;
  language?: string;
}

export function parseMarkdownV2(src: string): FormattedText {
  let text = "";
  const entities: MessageEntity[] = [];
  const stack: Open[] = [];
  let quoteStart: number | undefined;
  const closeQuote = (): void => {
    if (quoteStart !== undefined && text.length > quoteStart) {
      entities.push({ type: "blockquote", offset: quoteStart, length: text.length - quoteStart });
    }
    quoteStart = undefined;
  };
  const toggle = (marker: string, type: string, at: number): void => {
    const top = stack.at(-1);
    if (top?.marker === marker) {
      stack.pop();
      if (text.length > top.offset)
        entities.push({
          type,
          offset: top.offset,
          length: text.length - top.offset,
        } as MessageEntity);
    } else {
      stack.push({ marker, type, offset: text.length, at });
    }
  };
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    const top = stack.at(-1);
    if (c === "\\" && i + 1 < src.length) {
      text += src[i + 1];
      i += 2;
      continue;
    }
    if (top?.type === "pre" || top?.type === "code") {
      const end = top.type === "pre" ? "```" : "`";
      if (src.startsWith(end, i)) {
        stack.pop();
        if (text.length > top.offset) {
          const entity = {
            type: top.type,
            offset: top.offset,
            length: text.length - top.offset,
          } as MessageEntity;
          if (top.language) Object.assign(entity, { language: top.language });
          entities.push(entity);
        }
        i += end.length;
      } else {
        text += c;
        i += 1;
      }
      continue;
    }
    if (c === "\n") closeQuote();
    if (src.startsWith("```", i)) {
      const lineEnd = src.indexOf("\n", i + 3);
      const language = lineEnd > 0 ? src.slice(i + 3, lineEnd) : "";
      const hasLanguage = lineEnd > 0 && /^[^\s`]+$/.test(language);
      stack.push({
        marker: "```",
        type: "pre",
        offset: text.length,
        at: i,
        ...(hasLanguage ? { language } : {}),
      });
      i = hasLanguage ? lineEnd + 1 : i + 3;
      continue;
    }
    if (c === "`") {
      stack.push({ marker: "`", type: "code", offset: text.length, at: i });
      i += 1;
      continue;
    }
    if (src.startsWith("||", i) || src.startsWith("__", i)) {
      toggle(src.slice(i, i + 2), c === "|" ? "spoiler" : "underline", i);
      i += 2;
      continue;
    }
    if (c === "_" || c === "*" || c === "~") {
      toggle(c, c === "_" ? "italic" : c === "*" ? "bold" : "strikethrough", i);
      i += 1;
      continue;
    }
    if (c === "[") {
      stack.push({ marker: "[", type: "text_link", offset: text.length, at: i });
      i += 1;
      continue;
    }
    if (c === "]" && top?.marker === "[") {
      stack.pop();
      const url = /^\(((?:\\.|[^)\\])*)\)/.exec(src.slice(i + 1));
      if (!url) throw cantParse(`Can't find end of a URL at byte offset ${byteOffset(src, i + 1)}`);
      if (text.length > top.offset) {
        entities.push({
          type: "text_link",
          offset: top.offset,
          length: text.length - top.offset,
          url: url[1]!.replace(/\\(.)/g, "$1"),
        });
      }
      i += 1 + url[0].length;
      continue;
    }
    if (c === ">" && (i === 0 || src[i - 1] === "\n")) {
      quoteStart = text.length;
      i += 1;
      continue;
    }
    if (RESERVED.includes(c)) {
      throw cantParse(`Character '${c}' is reserved and must be escaped with the preceding '\\'`);
    }
    text += c;
    i += 1;
  }
  closeQuote();
  const open = stack.pop();
  if (open)
    throw cantParse(
      `Can't find end of ${NAMES[open.type] ?? open.type} entity at byte offset ${byteOffset(src, open.at)}`,
    );
  return { text, entities };
}

const LEGACY: Record<string, string> = { "*": "bold", _: "italic", "`": "code", "```": "pre" };

export function parseMarkdown(src: string): FormattedText {
  let text = "";
  const entities: MessageEntity[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (c === "\\" && "_*`[".includes(src[i + 1] ?? "")) {
      text += src[i + 1];
      i += 2;
      continue;
    }
    const marker = src.startsWith("```", i) ? "```" : c in LEGACY ? c : c === "[" ? "[" : undefined;
    if (!marker) {
      text += c;
      i += 1;
      continue;
    }
    const closing = marker === "[" ? "]" : marker;
    const end = src.indexOf(closing, i + marker.length);
    if (end < 0)
      throw cantParse(`Can't find end of the entity starting at byte offset ${byteOffset(src, i)}`);
    const inner = src.slice(i + marker.length, end);
    const offset = text.length;
    text += inner;
    if (marker === "[") {
      const url = /^\(([^)]*)\)/.exec(src.slice(end + 1));
      if (url && inner)
        entities.push({ type: "text_link", offset, length: inner.length, url: url[1]! });
      i = end + 1 + (url ? url[0].length : 0);
      continue;
    }
    if (inner)
      entities.push({ type: LEGACY[marker], offset, length: inner.length } as MessageEntity);
    i = end + marker.length;
  }
  return { text, entities };
}
