import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseMoney } from "@orderbot/core";
import { formatMoney } from "@orderbot/conversation";

describe("formatMoney", () => {
  it("formats integer minor units without floating point", () => {
    expect(formatMoney(25, "XTR")).toBe("25 ⭐");
    expect(formatMoney(1250, "USD")).toBe("12.50 USD");
    expect(formatMoney(5, "EUR")).toBe("0.05 EUR");
    expect(formatMoney(-101, "USD")).toBe("-1.01 USD");
    expect(formatMoney(300, "JPY")).toBe("300 JPY");
  });

  it("round-trips: what it formats, core parses back to the same minor units", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 999_999_999 }),
        fc.constantFrom("USD", "EUR", "XTR"),
        (minor, currency) => {
          const text = formatMoney(minor, currency).split(" ")[0]!;
          expect(parseMoney(text, currency)).toBe(minor);
        },
      ),
    );
  });
});
