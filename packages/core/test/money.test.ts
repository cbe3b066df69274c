import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatMoney, parseMoney } from "@orderbot/core";

describe("money", () => {
  it("formats integer minor units without floating point", () => {
    expect(formatMoney(25, "XTR")).toBe("25 ⭐");
    expect(formatMoney(1250, "USD")).toBe("12.50 USD");
    expect(formatMoney(5, "EUR")).toBe("0.05 EUR");
    expect(formatMoney(-101, "USD")).toBe("-1.01 USD");
    expect(formatMoney(300, "JPY")).toBe("300 JPY");
  });

  it("parses an operator's amount into minor units, and refuses what is not one", () => {
    expect(parseMoney("12.5", "USD")).toBe(1250);
    expect(parseMoney("12", "USD")).toBe(1200);
    expect(parseMoney("30", "XTR")).toBe(30);
    for (const bad of ["", "0", "-1", "1.005", "12.5", "abc", "1e3", "99999999999"]) {
      expect(parseMoney(bad, bad === "12.5" ? "XTR" : "USD"), bad).toBeNull();
    }
  });

  it("round-trips: what it formats, it parses back to the same minor units", () => {
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
