// The delivery of a digital order's codes, as the worker renders it: the codes one a line, and
// which part of how many when they take several messages.
import { describe, expect, it } from "vitest";
import { renderNotice, type Locale, type Params } from "../src/index.ts";

const renderTemplate = (template: string, params: Params, locale: Locale) =>
  renderNotice(template, params, locale).text;

const params = (part: number, parts: number) => ({
  orderId: "ABCD2345",
  codes: "GIFT-1\nGIFT-2",
  count: 2,
  part,
  parts,
  single: parts === 1 ? "yes" : "no",
  itemIds: "1,2",
});

describe("digital-delivery", () => {
  it("gives the codes one a line, in the customer's language", () => {
    expect(renderTemplate("digital-delivery", params(1, 1), "en")).toBe(
      "Order ABCD2345 is paid. Here is what you bought:\nGIFT-1\nGIFT-2\nYou can see it again any time under /orders.",
    );
    expect(renderTemplate("digital-delivery", params(1, 1), "zh")).toBe(
      "订单 ABCD2345 已支付。您购买的内容如下：\nGIFT-1\nGIFT-2\n随时可在 /orders 中再次查看。",
    );
  });

  it("says which part a message is when the codes take several", () => {
    expect(renderTemplate("digital-delivery", params(2, 3), "en")).toContain(
      "Here is what you bought (part 2 of 3):\nGIFT-1",
    );
    expect(renderTemplate("digital-delivery", params(2, 3), "zh")).toContain(
      "（第 2 部分，共 3 部分）：",
    );
  });
});
