// Shared by the parse_mode parsers.
import { badRequest } from "./errors.ts";
import type { MessageEntity } from "./types.ts";

export interface FormattedText {
  text: string;
  entities: MessageEntity[];
}

/** Byte offset of a UTF-16 index, as the Bot API reports positions in parse errors. */
export function byteOffset(source: string, index: number): number {
  return Buffer.byteLength(source.slice(0, index), "utf8");
}

export function cantParse(detail: string): Error {
  return badRequest(`can't parse entities: ${detail}`);
}
