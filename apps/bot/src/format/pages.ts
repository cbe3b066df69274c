import { cutText } from "@orderbot/platform";

/** Telegram's longest message text. */
export const MESSAGE_TEXT_LIMIT = 4096;

/**
 * Lines joined into as few messages as fit, each within `limit` characters and cut only between
 * lines (a single line longer than the limit is cut). A long listing goes out as several messages
 * instead of one that Telegram refuses ("message is too long").
 */
export function pages(lines: readonly string[], limit = MESSAGE_TEXT_LIMIT): string[] {
  const out: string[] = [];
  let current = "";
  for (const raw of lines) {
    const line = cutText(raw, limit);
    if (current !== "" && current.length + 1 + line.length > limit) {
      out.push(current);
      current = line;
    } else current = current === "" ? line : `${current}\n${line}`;
  }
  if (current !== "") out.push(current);
  return out;
}
