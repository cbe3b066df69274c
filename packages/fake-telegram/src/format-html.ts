// parse_mode "HTML": the tags and character references Telegram supports, with its error messages.
import { byteOffset, cantParse, type FormattedText } from "./format-common.ts";
import type { MessageEntity } from "./types.ts";

const SIMPLE_TAGS: Record<string, MessageEntity["type"]> = {
  b: "bold",
  strong: "bold",
  i: "italic",
  em: "italic",
  u: "underline",
  ins: "underline",
  s: "strikethrough",
  strike: "strikethrough",
  del: "strikethrough",
  "tg-spoiler": "spoiler",
  code: "code",
  pre: "pre",
  blockquote: "blockquote",
};

const NAMED_REFERENCES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"' };

interface OpenTag {
  name: string;
  offset: number;
  entity: Record<string, unknown> | undefined;
}

export function parseHtml(source: string): FormattedText {
  let text = "";
  const entities: MessageEntity[] = [];
  const stack: OpenTag[] = [];
  let i = 0;
  while (i < source.length) {
    const ch = source[i]!;
    if (ch === "&") {
      const ref = /^&(#x[0-9a-fA-F]{1,6}|#\d{1,7}|[a-zA-Z]+);/.exec(source.slice(i, i + 12));
      const decoded = ref ? decodeReference(ref[1]!) : undefined;
      if (ref && decoded !== undefined) {
        text += decoded;
        i += ref[0].length;
      } else {
        text += ch;
        i += 1;
      }
      continue;
    }
    if (ch !== "<") {
      text += ch;
      i += 1;
      continue;
    }
    const close = source.indexOf(">", i);
    if (close < 0) throw cantParse(`Unclosed start tag at byte offset ${byteOffset(source, i)}`);
    const inner = source.slice(i + 1, close).trim();
    if (inner.startsWith("/")) {
      const name = inner.slice(1).trim().toLowerCase();
      const open = stack.pop();
      if (!open) throw cantParse(`Unexpected end tag at byte offset ${byteOffset(source, i)}`);
      if (name !== "" && name !== open.name) {
        throw cantParse(
          `Unmatched end tag at byte offset ${byteOffset(source, i)}, expected "</${open.name}>", found "</${name}>"`,
        );
      }
      if (open.entity && text.length > open.offset) {
        entities.push({
          ...open.entity,
          offset: open.offset,
          length: text.length - open.offset,
        } as MessageEntity);
      }
    } else {
      const nameMatch = /^[a-zA-Z][a-zA-Z0-9-]*/.exec(inner);
      const name = (nameMatch?.[0] ?? "").toLowerCase();
      const attributes = parseAttributes(inner.slice(name.length));
      stack.push({
        name,
        offset: text.length,
        entity: startTagEntity(name, attributes, source, i, stack),
      });
    }
    i = close + 1;
  }
  const unclosed = stack.pop();
  if (unclosed) throw cantParse(`Can't find end tag corresponding to start tag "${unclosed.name}"`);
  return { text, entities };
}

function startTagEntity(
  name: string,
  attributes: Map<string, string>,
  source: string,
  index: number,
  stack: OpenTag[],
): Record<string, unknown> | undefined {
  if (name === "a") {
    const href = attributes.get("href") ?? "";
    const mention = /^tg:\/\/user\?id=(\d+)$/.exec(href);
    if (mention)
      return {
        type: "text_mention",
        user: { id: Number(mention[1]), is_bot: false, first_name: "" },
      };
    return href ? { type: "text_link", url: href } : undefined;
  }
  if (name === "span") {
    if (attributes.get("class") !== "tg-spoiler") {
      throw cantParse(
        `Tag "span" must have class "tg-spoiler" at byte offset ${byteOffset(source, index)}`,
      );
    }
    return { type: "spoiler" };
  }
  if (name === "tg-emoji")
    return { type: "custom_emoji", custom_emoji_id: attributes.get("emoji-id") ?? "" };
  if (name === "code" && stack.at(-1)?.name === "pre") {
    const language = /^language-(.+)$/.exec(attributes.get("class") ?? "")?.[1];
    const pre = stack.at(-1)!;
    if (language && pre.entity) pre.entity.language = language;
    return undefined;
  }
  if (name === "blockquote" && attributes.has("expandable"))
    return { type: "expandable_blockquote" };
  const type = SIMPLE_TAGS[name];
  if (!type)
    throw cantParse(`Unsupported start tag "${name}" at byte offset ${byteOffset(source, index)}`);
  return { type };
}

function parseAttributes(rest: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const match of rest.matchAll(
    /([a-zA-Z-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g,
  )) {
    const value = match[2] ?? match[3] ?? match[4] ?? "";
    attributes.set(
      match[1]!.toLowerCase(),
      value.replace(/&(lt|gt|amp|quot);/g, (_, r: string) => NAMED_REFERENCES[r]!),
    );
  }
  return attributes;
}

function decodeReference(ref: string): string | undefined {
  if (ref.startsWith("#x")) return safeCodePoint(Number.parseInt(ref.slice(2), 16));
  if (ref.startsWith("#")) return safeCodePoint(Number.parseInt(ref.slice(1), 10));
  return NAMED_REFERENCES[ref.toLowerCase()];
}

function safeCodePoint(code: number): string | undefined {
  return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : undefined;
}
