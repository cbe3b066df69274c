// The one place a text is cut. A cut by `.slice` can fall between the two halves of an emoji: the
// lone half is not valid UTF-8, so Telegram refuses the text and PostgreSQL refuses it in jsonb.

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/**
 * `text` made well-formed and, when longer than `max` UTF-16 units (the length Telegram's limits
 * and every `.length` check count), cut between graphemes, so that no emoji, flag or accented
 * letter is split, with `ellipsis` after the cut; the result, ellipsis included, is never longer
 * than `max`.
 *
 * @example cutText("Ann 👩‍👩‍👧", 6) === "Ann "; cutText("Teapot", 4, "…") === "Tea…"
 */
export function cutText(text: string, max: number, ellipsis = ""): string {
  const whole = text.toWellFormed();
  if (whole.length <= max) return whole;
  const budget = max - ellipsis.length;
  if (budget < 0) return "";
  let kept = 0;
  for (const { segment } of graphemes.segment(whole)) {
    if (kept + segment.length > budget) break;
    kept += segment.length;
  }
  return `${whole.slice(0, kept)}${ellipsis}`;
}
