// A search's words ride in its "next page" button, so the chat asks core for no more words than
// that button can carry.
import { searchWords } from "@orderbot/core/catalog";

/** The query's share of Telegram's 64 bytes of callback data (the rest: prefix, page, separators). */
export const SEARCH_QUERY_MAX_BYTES = 40;

/**
 * The words core would search for, kept while they fit SEARCH_QUERY_MAX_BYTES (UTF-8), joined by
 * spaces; later words are dropped, and a first word longer than the limit is cut (between
 * characters) to fit.
 */
export function fitSearchQuery(text: string): string {
  const kept: string[] = [];
  let bytes = 0;
  for (const word of searchWords(text)) {
    const fitted = kept.length === 0 ? fit(word, SEARCH_QUERY_MAX_BYTES) : word;
    const size = Buffer.byteLength(fitted) + (kept.length > 0 ? 1 : 0);
    if (bytes + size > SEARCH_QUERY_MAX_BYTES) break;
    kept.push(fitted);
    bytes += size;
  }
  return kept.join(" ");
}

function fit(word: string, maxBytes: number): string {
  let out = "";
  for (const char of word) {
    if (Buffer.byteLength(out + char) > maxBytes) break;
    out += char;
  }
  return out;
}
