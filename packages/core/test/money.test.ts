import { describe, expect, it } from "vitest";
import { minorUnitDigits, parseMoney } from "@orderbot/core";

describe("money", () => {
  it("parses an operator's amount into minor units, and refuses what is not one", () => {
    expect(parseMoney("12.5", "USD")).toBe(1250);
    expect(parseMoney("12", "USD")).toBe(1200);
    expect(parseMoney("30", "XTR")).toBe(30);
    for (const bad of ["", "0", "-1", "1.005", "12.5", "abc", "1e3", "99999999999"]) {
      expect(parseMoney(bad, bad === "12.5" ? "XTR" : "USD"), bad).toBeNull();
    }
  });

  it("knows which currencies have no fractional unit", () => {
    expect(minorUnitDigits("XTR")).toBe(0);
    expect(minorUnitDigits("JPY")).toBe(0);
    expect(minorUnitDigits("USD")).toBe(2);
  });
});
