import { describe, expect, it } from "vitest";
import { problemsText } from "../src/index.ts";

describe("a refusal's problems, in the reader's language", () => {
  const problems = [
    { field: "sku", rule: "format", bound: "sku" },
    { field: "items.1.sku", rule: "duplicate", bound: "TEA" },
    { field: "endsAt", rule: "after", bound: "startsAt" },
    { field: "note", rule: "max-length", bound: 1 },
    { field: "kind", rule: "one-of", bound: "digital|physical" },
  ] as const;

  it("words each field, rule and bound in English", () => {
    expect(problemsText("en", problems)).toBe(
      "SKU: letters, digits, '.', '_' and '-' only; SKU: TEA appears twice; " +
        "until: must come after from; note: at most 1 character; kind: one of digital|physical",
    );
  });

  it("and in Chinese", () => {
    expect(problemsText("zh", problems)).toBe(
      "SKU：只能包含字母、数字、“.”、“_”和“-”；SKU：TEA 出现了两次；" +
        "结束：必须晚于 开始；note：最多 1 个字符；类型：只能是 digital|physical 之一",
    );
  });
});
