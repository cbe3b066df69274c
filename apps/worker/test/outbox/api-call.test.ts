import { describe, expect, it } from "vitest";
import { type ClaimedMessage, type NotificationTemplate } from "@orderbot/core/outbox";
import { InvalidOutboxMessageError, toApiCall } from "../../src/outbox/api-call.ts";

// The zh labels of the way back (btn-my-orders, btn-menu-catalog), as the bot's own cards show it.
const ZH_MY_ORDERS = "◀ 我的订单";
const ZH_CATALOG = "🛍 商品目录";

/** The row's call; these rows always have one. */
function callOf(...args: Parameters<typeof toApiCall>) {
  const call = toApiCall(...args);
  if (!call) throw new Error("nothing to send");
  return call;
}

const row = (method: string, payload: unknown, chatId = 7_000_000_001n): ClaimedMessage => ({
  id: 1,
  dedupeKey: "k",
  chatId,
  method,
  payload,
  attempts: 1,
  claim: "2026-01-01 00:00:00",
  createdAt: new Date(),
});

describe("toApiCall", () => {
  it("renders a notify row in the recipient's language", () => {
    const expired = { template: "order-expired", params: { orderId: "AB12CD34" } };
    expect(callOf(row("notify", expired), { locale: "en" })).toEqual({
      method: "sendMessage",
      payload: { chat_id: 7_000_000_001, text: expect.stringContaining("AB12CD34 has expired") },
    });
    const zh = callOf(row("notify", expired), { locale: "zh" });
    expect(zh.payload.text).toBe(
      "您的订单 AB12CD34 保留已到期，商品已重新上架。没有扣款。可在 /catalog 重新下单。",
    );
  });

  it("edits an order's card in place, in the customer's words, with only its way back", () => {
    const call = callOf(
      row("notify", {
        template: "order-card",
        params: { orderId: "AB12CD34", status: "EXPIRED" },
      }),
      {
        locale: "zh",
        messages: { cardMessageId: 42, invoiceMessageId: null, invoiceDeletable: false },
      },
    );
    expect(call).toEqual({
      method: "editMessageText",
      payload: {
        chat_id: 7_000_000_001,
        message_id: 42,
        text: "订单 AB12CD34：已过期。\n商品明细和后续进展请见 /orders。",
        reply_markup: {
          inline_keyboard: [
            [
              { text: ZH_MY_ORDERS, callback_data: "m:orders" },
              { text: ZH_CATALOG, callback_data: "c:1" },
            ],
          ],
        },
      },
    });
  });

  it("voids a live invoice while Telegram allows, and sends nothing where no message shows the order", () => {
    const card = { template: "order-card", params: { orderId: "AB12CD34", status: "SHIPPED" } };
    const none = { locale: "en" as const, messages: null };
    expect(toApiCall(row("notify", card), none)).toBeNull();
    const voidRow = row("voidInvoice", { orderId: "AB12CD34" });
    const live = { cardMessageId: 5, invoiceMessageId: 6, invoiceDeletable: true };
    expect(toApiCall(voidRow, { locale: "en", messages: live })).toEqual({
      method: "deleteMessage",
      payload: { chat_id: 7_000_000_001, message_id: 6 },
    });
    const stale = { ...live, invoiceDeletable: false };
    expect(toApiCall(voidRow, { locale: "en", messages: stale })).toBeNull();
    expect(toApiCall(voidRow, none)).toBeNull();
  });

  it("shows states in the glossary's words and the shop's words for operators", () => {
    const request = callOf(
      row(
        "notify",
        {
          template: "operator-support-request",
          params: {
            requestId: 7,
            topic: "question",
            customer: "Ann (@ann)",
            // A row of today's shape (amounts as data) beside one queued when they were text.
            orders: "AB12CD34 PAID 1250 USD\nCD34EF56 RESERVED 5 ⭐",
            text: "Do you ship to Berlin?",
          },
        },
        -100_5n,
      ),
      { locale: "zh" },
    );
    expect(request.payload.text).toBe(
      [
        "顾客问题 #7，来自 Ann (@ann)",
        "最近的订单：",
        "AB12CD34 · 已支付 · 12.50 USD",
        "CD34EF56 · 待付款 · 5 ⭐",
        "留言：Do you ship to Berlin?",
        "回复本消息即可答复顾客。",
      ].join("\n"),
    );
    const refund = String(
      callOf(
        row("notify", {
          template: "operator-refund-needed",
          params: {
            orderId: "A1",
            reason: "late-out-of-stock",
            amountMinor: 5,
            currency: "XTR",
            automatic: 1,
          },
        }),
        { locale: "en" },
      ).payload.text,
    );
    expect(refund).toMatch(/^Refund under way: 5 ⭐, order A1 \(/);
    expect(refund).not.toMatch(/worker|Refund needed/);
  });

  it("formats money by currency in refund notices", () => {
    const call = callOf(
      row("notify", {
        template: "payment-refunded",
        params: { orderId: "X", reason: "late-out-of-stock", amountMinor: 250, currency: "XTR" },
      }),
      { locale: "en" },
    );
    expect(call.payload.text).toContain("250 ⭐");
    const usd = callOf(
      row("notify", {
        template: "order-refunded",
        params: { orderId: "X", amountMinor: 1250, currency: "USD" },
      }),
      { locale: "en" },
    );
    expect(usd.payload.text).toContain("12.50 USD");
  });

  it("renders every template core and the worker queue, in both languages", () => {
    // Keyed by core's template type: a template added there and not here fails to compile.
    const samples: Record<NotificationTemplate, Record<string, string | number>> = {
      "order-expired": { orderId: "A1" },
      "payment-received": { orderId: "A1" },
      "order-refunded": { orderId: "A1", amountMinor: 5, currency: "XTR" },
      "digital-delivery": {
        orderId: "A1",
        codes: "GIFT-1",
        count: 1,
        part: 1,
        parts: 1,
        single: "yes",
        itemIds: "1",
      },
      "payment-refunded": {
        orderId: "A1",
        reason: "already-paid",
        amountMinor: 5,
        currency: "XTR",
      },
      "operator-order-paid": { orderId: "AB23CD45", amountMinor: 5, currency: "XTR" },
      "order-status": {
        orderId: "A1",
        status: "SHIPPED",
        step: "SHIPPED",
        note: "T1",
        hasNote: "yes",
      },
      "order-card": { orderId: "A1", status: "EXPIRED" },
      "operator-refund-needed": {
        orderId: "A1",
        reason: "late-out-of-stock",
        amountMinor: 5,
        currency: "XTR",
        automatic: 1,
      },
      "operator-refunded-outside": {
        orderId: "A1",
        orderStatus: "REFUNDED",
        amountMinor: 5,
        currency: "XTR",
        telegramChargeId: "ch1",
      },
      "operator-ledger-finding": {
        findingId: 3,
        kind: "amount-mismatch",
        telegramChargeId: "ch1",
        telegramAmount: 5,
        shopAmount: 4,
      },
      "operator-low-stock": { sku: "TEA", titleEn: "Tea", titleZh: "茶", stock: 2, threshold: 5 },
      "support-answer": { requestId: 7, text: "Refunded, sorry" },
      "operator-support-request": {
        requestId: 7,
        topic: "paysupport",
        customer: "Ann (@ann)",
        orders: "AB12CD34 PAID 25 ⭐",
        text: "Where is my tea",
      },
      "operator-dead-letter": {
        id: 1,
        method: "notify",
        dedupeKey: "k",
        attempts: 3,
        error: "500: oops",
      },
      "operator-daily-report": {
        day: "2026-01-01",
        placed: 3,
        expired: 1,
        cancelled: 0,
        revenue: "12.50 USD (2)",
        refunded: 0,
        refundsPending: 0,
        deadLetters: 0,
        lowStock: "-",
      },
    };
    const rows = Object.entries(samples).map(([template, params]) => ({ template, params }));
    // A card to edit, for order-card.
    const messages = { cardMessageId: 1, invoiceMessageId: null, invoiceDeletable: false };
    for (const payload of rows) {
      for (const locale of ["en", "zh"] as const) {
        const text = String(callOf(row("notify", payload), { locale, messages }).payload.text);
        expect(text.length, `${payload.template} ${locale}`).toBeGreaterThan(10);
        expect(text, `${payload.template} ${locale}`).not.toContain("?");
      }
    }
    expect(
      callOf(
        row("notify", {
          template: "operator-low-stock",
          params: { sku: "TEA", titleEn: "Tea", titleZh: "茶", stock: 0, threshold: 5 },
        }),
        { locale: "en" },
      ).payload.text,
    ).toBe("Out of stock: Tea (TEA).");
  });

  it("passes refundStarPayment and chat methods through, with the row's chat id", () => {
    expect(
      callOf(row("refundStarPayment", { user_id: 5, telegram_payment_charge_id: "c1" }), {
        locale: "en",
      }),
    ).toEqual({
      method: "refundStarPayment",
      payload: { user_id: 5, telegram_payment_charge_id: "c1" },
    });
    expect(
      callOf(row("sendMessage", { text: "hi", chat_id: 1 }, -100123n), { locale: "en" }),
    ).toEqual({
      method: "sendMessage",
      payload: { text: "hi", chat_id: -100123 },
    });
  });

  it("refuses rows it cannot send: unknown method or template, malformed payload", () => {
    expect(() => callOf(row("sendPoll", { question: "?" }), { locale: "en" })).toThrow(
      InvalidOutboxMessageError,
    );
    expect(() => callOf(row("notify", { template: "no-such-template" }), { locale: "en" })).toThrow(
      InvalidOutboxMessageError,
    );
    expect(() => callOf(row("notify", "text"), { locale: "en" })).toThrow(
      InvalidOutboxMessageError,
    );
    // An order id no button may carry (the codecs refuse it): dead, not a broken keyboard.
    const paid = { template: "operator-order-paid", params: { orderId: "A1:x" } };
    expect(() => callOf(row("notify", paid), { locale: "en" })).toThrow(InvalidOutboxMessageError);
    expect(() => callOf(row("refundStarPayment", { user_id: "5" }), { locale: "en" })).toThrow(
      InvalidOutboxMessageError,
    );
  });
});
