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

/** Where a parse stands: the source read up to `i`, the text and entities made so far. */
interface Parse {
  src: string;
  i: number;
  text: string;
  entities: MessageEntity[];
  stack: Open[];
  quoteStart?: number;
}

export function parseMarkdownV2(src: string): FormattedText {
  const p: Parse = { src, i: 0, text: "", entities: [], stack: [] };
  while (p.i < src.length) step(p);
  closeQuote(p);
  const open = p.stack.pop();
  if (open)
    throw cantParse(
      `Can't find end of ${NAMES[open.type] ?? open.type} entity at byte offset ${byteOffset(src, open.at)}`,
    );
  return { text: p.text, entities: p.entities };
}

/** Reads one character or marker at `p.i`. */
function step(p: Parse): void {
  const c = p.src[p.i]!;
  const top = p.stack.at(-1);
  if (c === "\\" && p.i + 1 < p.src.length) {
    p.text += p.src[p.i + 1];
    p.i += 2;
    return;
  }
  if (top?.type === "pre" || top?.type === "code") return insideCode(p, top, c);
  if (c === "\n") closeQuote(p);
  if (MARKERS.some((marker) => marker(p, c, top))) return;
  if (RESERVED.includes(c)) {
    throw cantParse(`Character '${c}' is reserved and must be escaped with the preceding '\\'`);
  }
  p.text += c;
  p.i += 1;
}

/** Inside code or pre only the closing marker counts; everything else is text. */
function insideCode(p: Parse, top: Open, c: string): void {
  const end = top.type === "pre" ? "```" : "`";
  if (!p.src.startsWith(end, p.i)) {
    p.text += c;
    p.i += 1;
    return;
  }
  p.stack.pop();
  if (p.text.length > top.offset) {
    const entity = {
      type: top.type,
      offset: top.offset,
      length: p.text.length - top.offset,
    } as MessageEntity;
    if (top.language) Object.assign(entity, { language: top.language });
    p.entities.push(entity);
  }
  p.i += end.length;
}

function closeQuote(p: Parse): void {
  if (p.quoteStart !== undefined && p.text.length > p.quoteStart) {
    p.entities.push({
      type: "blockquote",
      offset: p.quoteStart,
      length: p.text.length - p.quoteStart,
    });
  }
  p.quoteStart = undefined;
}

function toggle(p: Parse, marker: string, type: string): void {
  const top = p.stack.at(-1);
  if (top?.marker === marker) {
    p.stack.pop();
    if (p.text.length > top.offset)
      p.entities.push({
        type,
        offset: top.offset,
        length: p.text.length - top.offset,
      } as MessageEntity);
  } else {
    p.stack.push({ marker, type, offset: p.text.length, at: p.i });
  }
}

/** A marker at `p.i`: consumes it and says true, or leaves the parse alone and says false. */
type Marker = (p: Parse, c: string, top: Open | undefined) => boolean;

const openPre: Marker = (p) => {
  if (!p.src.startsWith("```", p.i)) return false;
  const { src, i } = p;
  const lineEnd = src.indexOf("\n", i + 3);
  const language = lineEnd > 0 ? src.slice(i + 3, lineEnd) : "";
  const hasLanguage = lineEnd > 0 && /^[^\s`]+$/.test(language);
  p.stack.push({
    marker: "```",
    type: "pre",
    offset: p.text.length,
    at: i,
    ...(hasLanguage ? { language } : {}),
  });
  p.i = hasLanguage ? lineEnd + 1 : i + 3;
  return true;
};

const openCode: Marker = (p, c) => {
  if (c !== "`") return false;
  p.stack.push({ marker: "`", type: "code", offset: p.text.length, at: p.i });
  p.i += 1;
  return true;
};

const toggleDouble: Marker = (p, c) => {
  if (!p.src.startsWith("||", p.i) && !p.src.startsWith("__", p.i)) return false;
  toggle(p, p.src.slice(p.i, p.i + 2), c === "|" ? "spoiler" : "underline");
  p.i += 2;
  return true;
};

const toggleSingle: Marker = (p, c) => {
  if (c !== "_" && c !== "*" && c !== "~") return false;
  toggle(p, c, c === "_" ? "italic" : c === "*" ? "bold" : "strikethrough");
  p.i += 1;
  return true;
};

const openLink: Marker = (p, c) => {
  if (c !== "[") return false;
  p.stack.push({ marker: "[", type: "text_link", offset: p.text.length, at: p.i });
  p.i += 1;
  return true;
};

const closeLink: Marker = (p, c, top) => {
  if (c !== "]" || top?.marker !== "[") return false;
  p.stack.pop();
  const url = /^\(((?:\\.|[^)\\])*)\)/.exec(p.src.slice(p.i + 1));
  if (!url) throw cantParse(`Can't find end of a URL at byte offset ${byteOffset(p.src, p.i + 1)}`);
  if (p.text.length > top.offset) {
    p.entities.push({
      type: "text_link",
      offset: top.offset,
      length: p.text.length - top.offset,
      url: url[1]!.replace(/\\(.)/g, "$1"),
    });
  }
  p.i += 1 + url[0].length;
  return true;
};

const startQuote: Marker = (p, c) => {
  if (c !== ">" || (p.i !== 0 && p.src[p.i - 1] !== "\n")) return false;
  p.quoteStart = p.text.length;
  p.i += 1;
  return true;
};

/** In the order they are tried: "```" before "`", "__" before "_". */
const MARKERS: Marker[] = [
  openPre,
  openCode,
  toggleDouble,
  toggleSingle,
  openLink,
  closeLink,
  startQuote,
];

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
