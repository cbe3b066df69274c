// cutText: the one helper every cut of a text goes through (finding: a name cut in the middle of
// an emoji broke the transaction that records a payment).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cutText } from "../src/text.ts";

const graphemes = (text: string) => [
  ...new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text),
];

/** Texts full of emoji (surrogate pairs, ZWJ families, flags, skin tones) and lone halves. */
const emojiText = fc
  .array(
    fc.oneof(
      fc.constantFrom("🍵", "👩‍👩‍👧", "🇨🇳", "👍🏽", "é", "茶", " ", "\ud83d", "\udc4d"),
      fc.string({ maxLength: 3 }),
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(""));

describe("cutText", () => {
  it("keeps a text that fits, made well-formed", () => {
    expect(cutText("Ann 🍵", 6)).toBe("Ann 🍵");
    expect(cutText("Ann \ud83d", 10)).toBe("Ann \ufffd");
  });

  it("never splits an emoji, and counts the ellipsis in the limit", () => {
    expect(cutText("Ann 👩‍👩‍👧", 6)).toBe("Ann ");
    expect(cutText("🍵🍵🍵", 5)).toBe("🍵🍵");
    expect(cutText("Teapot", 4, "…")).toBe("Tea…");
  });

  it("at every limit: well-formed, within the limit, whole graphemes of the text", () => {
    fc.assert(
      fc.property(emojiText, fc.nat(90), fc.constantFrom("", "…"), (text, max, ellipsis) => {
        const cut = cutText(text, max, ellipsis);
        expect(cut.isWellFormed()).toBe(true);
        expect(cut.length).toBeLessThanOrEqual(max);
        const whole = text.toWellFormed();
        if (whole.length <= max) {
          expect(cut).toBe(whole);
          return;
        }
        const kept = cut.endsWith(ellipsis) ? cut.slice(0, cut.length - ellipsis.length) : cut;
        const parts = graphemes(kept).map((g) => g.segment);
        expect(
          graphemes(whole)
            .slice(0, parts.length)
            .map((g) => g.segment),
        ).toEqual(parts);
        // The cut keeps as much as fits: the next grapheme would not have.
        const next = graphemes(whole)[parts.length]?.segment ?? "";
        if (max >= ellipsis.length)
          expect(kept.length + next.length + ellipsis.length).toBeGreaterThan(max);
      }),
      { numRuns: 2000 },
    );
  });
});
