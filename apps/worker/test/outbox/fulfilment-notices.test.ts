import { describe, expect, it } from "vitest";
import { fulfilmentButtons } from "@orderbot/core/fulfilment";
import { type ClaimedMessage } from "@orderbot/core/outbox";
import { InvalidOutboxMessageError, toApiCall } from "../../src/outbox/api-call.ts";

const row = (payload: unknown, chatId = 7_000_000_001n): ClaimedMessage => ({
  id: 1,
  dedupeKey: "k",
  chatId,
  method: "notify",
  payload,
  attempts: 1,
  claim: "2026-01-01 00:00:00",
  createdAt: new Date(),
});

const status = (step: string, note = "") => ({
  template: "order-status",
  params: { orderId: "AB12CD34", status: step, step, note, hasNote: note ? "yes" : "no" },
});

describe("fulfilment notices", () => {
  it("tells the customer each step in their language, with the tracking note when there is one", () => {
    const text = (payload: unknown) => toApiCall(row(payload), "en").payload.text;
    expect(text(status("PROCESSING"))).toBe(
      "Your order AB12CD34 is being prepared. We will tell you when it ships.",
    );
    expect(text(status("SHIPPED", "DHL 123"))).toBe(
      "Your order AB12CD34 has shipped.\nTracking: DHL 123\nWe will tell you when it is delivered.",
    );
    expect(text(status("SHIPPED"))).toBe(
      "Your order AB12CD34 has shipped.\nWe will tell you when it is delivered.",
    );
    expect(text({ ...status("SHIPPED", "顺丰 SF1"), locale: "zh" })).toBe(
      "您的订单 AB12CD34 已发货。\n物流单号：顺丰 SF1\n送达时我们会通知您。",
    );
    expect(text({ ...status("DELIVERED"), locale: "zh" })).toBe(
      "您的订单 AB12CD34 已送达。感谢您的惠顾！",
    );
  });

  it("puts the next-step buttons under the paid alert, labelled in the group's language", () => {
    const paid = {
      template: "operator-order-paid",
      params: { orderId: "AB12CD34", amountMinor: 5, currency: "XTR" },
      buttons: fulfilmentButtons("AB12CD34", "PAID"),
    };
    expect(toApiCall(row(paid, -100_1n), "en").payload.reply_markup).toEqual({
      inline_keyboard: [
        [
          { text: "📦 Start preparing", callback_data: "fm:AB12CD34:PROCESSING" },
          { text: "🚚 Mark shipped", callback_data: "fm:AB12CD34:SHIPPED" },
        ],
      ],
    });
    const zh = toApiCall(row({ ...paid, locale: "zh" }, -100_1n), "en");
    expect(zh.payload.reply_markup).toMatchObject({
      inline_keyboard: [[{ text: "📦 开始备货" }, { text: "🚚 标记为已发货" }]],
    });
    // Without buttons, no keyboard at all.
    const { buttons: _, ...plain } = paid;
    expect(toApiCall(row(plain, -100_1n), "en").payload).not.toHaveProperty("reply_markup");
  });

  it("sends a row with a malformed button to the dead letters instead of a broken keyboard", () => {
    const bad = { template: "operator-order-paid", params: {}, buttons: [{ step: 1 }] };
    expect(() => toApiCall(row(bad, -100_1n), "en")).toThrow(InvalidOutboxMessageError);
  });
});
