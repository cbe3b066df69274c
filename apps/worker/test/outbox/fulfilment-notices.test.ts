import { describe, expect, it } from "vitest";
import type { OrderView } from "@orderbot/core";
import { type ClaimedMessage } from "@orderbot/core/outbox";
import { toApiCall } from "../../src/outbox/api-call.ts";

/** The row's call; these rows always have one. */
function callOf(...args: Parameters<typeof toApiCall>) {
  const call = toApiCall(...args);
  if (!call) throw new Error("nothing to send");
  return call;
}

const row = (payload: unknown, chatId = 7_000_000_001n): ClaimedMessage => ({
  source: "outbox",
  lane: 0,
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
  params: { orderId: "AB23CD45", status: step, step, note, hasNote: note ? "yes" : "no" },
});

describe("fulfilment notices", () => {
  it("tells the customer each step in their language, with the tracking note when there is one", () => {
    const text = (payload: unknown, locale: "en" | "zh" = "en") =>
      callOf(row(payload), { locale }).payload.text;
    expect(text(status("PROCESSING"))).toBe(
      "Your order AB23CD45 is being prepared. We will tell you when it ships.",
    );
    expect(text(status("SHIPPED", "DHL 123"))).toBe(
      "Your order AB23CD45 has shipped.\nTracking: DHL 123\nWe will tell you when it is delivered.",
    );
    expect(text(status("SHIPPED"))).toBe(
      "Your order AB23CD45 has shipped.\nWe will tell you when it is delivered.",
    );
    expect(text(status("SHIPPED", "顺丰 SF1"), "zh")).toBe(
      "您的订单 AB23CD45 已发货。\n物流单号：顺丰 SF1\n送达时我们会通知您。",
    );
    expect(text(status("DELIVERED"), "zh")).toBe("您的订单 AB23CD45 已送达。感谢您的惠顾！");
  });

  it("lists a paid order's lines, read when sent, with its next steps, in the group's language", () => {
    const paid = {
      template: "operator-order-paid",
      params: {
        orderId: "AB23CD45",
        amountMinor: 5_500,
        currency: "EUR",
        customer: "Ann (@ann) · ••••0001",
        codeTails: "••••1111, ••••2222",
      },
    };
    const facts = {
      order: PHYSICAL,
      shippingOptions: [{ id: "dhl", title: "DHL", price: 500, countries: "*" as const }],
    };
    const en = callOf(row(paid, -100_1n), { locale: "en", facts });
    expect(en.payload.text).toBe(
      [
        "Order AB23CD45 was paid: 55.00 EUR.",
        "• Teapot × 2: 50.00 EUR",
        "Shipping: DHL (5.00 EUR)",
        "Deliver to: A••• L•••, •••, Berlin, DE",
        "Phone: +49 ••• ••• 67",
        "🔑 2: ••••1111, ••••2222",
        "Customer: Ann (@ann) · ••••0001",
      ].join("\n"),
    );
    expect(en.payload.reply_markup).toEqual({
      inline_keyboard: [
        [
          { text: "📦 Start preparing", callback_data: "fm:AB23CD45:PROCESSING" },
          { text: "🚚 Mark shipped", callback_data: "fm:AB23CD45:SHIPPED" },
          { text: "Show contact", callback_data: "ph:AB23CD45" },
        ],
      ],
    });
    const zh = callOf(row(paid, -100_1n), { locale: "zh", facts });
    expect(String(zh.payload.text).split("\n").slice(1, 6)).toEqual([
      "• 茶壶 × 2：50.00 EUR",
      "配送：DHL（5.00 EUR）",
      "收货：A••• L•••, •••, Berlin, DE",
      "电话：+49 ••• ••• 67",
      "🔑 2：••••1111, ••••2222",
    ]);
    expect(zh.payload.reply_markup).toMatchObject({
      inline_keyboard: [[{ text: "📦 开始备货" }, { text: "🚚 标记为已发货" }, {}]],
    });
  });

  it("lists a large order's first items and codes and counts the rest, within one message", () => {
    const LINES = 50;
    const UNITS = 99;
    const large: OrderView = {
      ...PHYSICAL,
      currency: "XTR",
      shipping: null,
      items: Array.from({ length: LINES }, (_, i) => ({
        sku: `CODE-${i}`,
        title: { en: `Gift card ${i}`.padEnd(64, "-"), zh: `礼品卡 ${i}`.padEnd(64, "-") },
        kind: "DIGITAL" as const,
        quantity: UNITS,
        unitPriceMinor: 100,
      })),
    };
    const tails = Array.from(
      { length: LINES * UNITS },
      (_, i) => `••••${String(i).padStart(4, "0")}`,
    );
    const paid = {
      template: "operator-order-paid",
      params: {
        orderId: "AB23CD45",
        amountMinor: 495_000,
        currency: "XTR",
        codeTails: tails.join(", "),
      },
    };
    for (const locale of ["en", "zh"] as const) {
      const text = String(
        callOf(row(paid, -100_1n), { locale, facts: { order: large } }).payload.text,
      );
      expect(text.length).toBeLessThanOrEqual(4096);
      expect(text).toContain(`🔑 ${LINES * UNITS}`);
      expect(text).toContain(`+${LINES * UNITS - 20}`);
      expect(text).toContain(locale === "en" ? "• … and 30 more" : "• ……另有 30 项");
    }
  });

  it("keeps a notice without buttons free of a keyboard", () => {
    const expired = { template: "order-expired", params: { orderId: "AB23CD45" } };
    expect(callOf(row(expired), { locale: "en" }).payload).not.toHaveProperty("reply_markup");
  });
});

const PHYSICAL: OrderView = {
  id: "AB23CD45",
  userId: 7_000_000_001n,
  chatId: 7_000_000_001n,
  status: "PAID",
  totalMinor: 5_000,
  currency: "EUR",
  expiresAt: new Date(),
  createdAt: new Date(),
  version: 2,
  items: [
    {
      sku: "POT",
      title: { en: "Teapot", zh: "茶壶" },
      kind: "PHYSICAL",
      quantity: 2,
      unitPriceMinor: 2_500,
    },
  ],
  shipping: {
    optionId: "dhl",
    shippingMinor: 500,
    nameMasked: "A••• L•••",
    phoneMasked: "+49 ••• ••• 67",
    emailMasked: null,
    addressMasked: "•••, Berlin, DE",
    hasContact: true,
    countryCode: "DE",
  },
};
