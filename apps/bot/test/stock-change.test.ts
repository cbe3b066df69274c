import { describe, expect, it } from "vitest";
import { parseStockChange } from "../src/features/operator/stock-change.ts";

describe("/stock's change, as the chat spells it", () => {
  it("reads +N, -N and =N as core's typed change", () => {
    expect(parseStockChange("+5")).toEqual({ op: "add", units: 5 });
    expect(parseStockChange(" -3 ")).toEqual({ op: "remove", units: 3 });
    expect(parseStockChange("=0")).toEqual({ op: "set", units: 0 });
  });

  it("refuses what is not one, leaving the bounds to core", () => {
    for (const text of ["3", "*3", "+1.5", "+", "++1", "+12345678", ""])
      expect(parseStockChange(text), text).toBeNull();
  });
});
