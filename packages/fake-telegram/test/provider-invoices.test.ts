// Provider invoices as Telegram runs them: several prices, need_* fields, and for a flexible invoice
// a shipping_query answered with answerShippingQuery before the pre-checkout; the chosen option's
// price is added to the total, and order_info goes with pre_checkout_query and successful_payment.
// For Stars (XTR) Telegram ignores every need_* field and is_flexible.
import { describe, expect, it } from "vitest";
import type { PreCheckoutQuery, ShippingQuery } from "@grammyjs/types";
import { DEFAULT_ADDRESS, type FakeTelegram, type SimulatedUser } from "../src/index.ts";
import { failure, rawCall } from "./support/raw.ts";
import { useTelegramWithAnn } from "./support/ann.ts";

let tg: FakeTelegram;
let ann: SimulatedUser;
useTelegramWithAnn(
  { telegram: { preCheckoutTimeoutMs: 1_000 }, ann: { lastName: "Lee" } },
  (opened) => ({ tg, ann } = opened),
);

const provider = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  chat_id: ann.chatId,
  title: "Teapot",
  description: "A clay teapot",
  payload: "order:7",
  currency: "USD",
  provider_token: "284685063:TEST:abc",
  prices: [
    { label: "Teapot", amount: 2_000 },
    { label: "Gift wrap", amount: 150 },
  ],
  need_name: true,
  need_phone_number: true,
  need_shipping_address: true,
  is_flexible: true,
  ...extra,
});

const OPTIONS = [
  { id: "courier", title: "Courier", prices: [{ label: "Courier", amount: 500 }] },
  { id: "post", title: "Post", prices: [{ label: "Post", amount: 300 }] },
];

/** The next update of a kind the bot has not seen yet. */
async function next<K extends "shipping_query" | "pre_checkout_query">(
  kind: K,
): Promise<K extends "shipping_query" ? ShippingQuery : PreCheckoutQuery> {
  for (let i = 0; i < 200; i++) {
    const found = tg.pendingUpdates.map((u) => u.update[kind]).find((q) => q !== undefined);
    if (found) return found as never;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`no ${kind}`);
}

const answerShipping = (params: Record<string, unknown>) =>
  rawCall(tg, "answerShippingQuery", params);

describe("sendInvoice with a provider", () => {
  it("takes several prices and needs a provider token; Stars take exactly one price and none", async () => {
    expect((await rawCall(tg, "sendInvoice", provider())).body.ok).toBe(true);
    expect(failure(await rawCall(tg, "sendInvoice", provider({ provider_token: "" })))).toBe(
      "400 400 Bad Request: PAYMENT_PROVIDER_INVALID",
    );
    const stars = provider({ currency: "XTR", provider_token: "" });
    expect(failure(await rawCall(tg, "sendInvoice", stars))).toBe(
      "400 400 Bad Request: STARS_INVOICE_INVALID",
    );
  });

  it("ignores need_* and is_flexible for Stars: no shipping_query, no order_info", async () => {
    const stars = provider({
      currency: "XTR",
      provider_token: "",
      prices: [{ label: "Tea", amount: 5 }],
    });
    expect((await rawCall(tg, "sendInvoice", stars)).body.ok).toBe(true);
    const paying = ann.pay();
    const query = await next("pre_checkout_query");
    expect(query.order_info).toBeUndefined();
    expect(query.shipping_option_id).toBeUndefined();
    expect(tg.pendingUpdates.some((u) => u.update.shipping_query)).toBe(false);
    await rawCall(tg, "answerPreCheckoutQuery", { pre_checkout_query_id: query.id, ok: true });
    const paid = await paying;
    expect(paid).toMatchObject({ status: "paid", totalAmount: 5 });
    expect(paid.status === "paid" && paid.message.successful_payment?.order_info).toBeUndefined();
  });
});

describe("a flexible invoice's shipping query", () => {
  it("carries the address; the chosen option's price is added; order_info reaches pre-checkout and the payment", async () => {
    await rawCall(tg, "sendInvoice", provider());
    const paying = ann.pay({ shippingOptionId: "post" });
    const shipping = await next("shipping_query");
    expect(shipping).toMatchObject({
      from: { id: ann.id },
      invoice_payload: "order:7",
      shipping_address: DEFAULT_ADDRESS,
    });
    expect(
      (
        await answerShipping({
          shipping_query_id: shipping.id,
          ok: true,
          shipping_options: OPTIONS,
        })
      ).body.ok,
    ).toBe(true);
    const query = await next("pre_checkout_query");
    expect(query).toMatchObject({
      currency: "USD",
      total_amount: 2_150 + 300,
      shipping_option_id: "post",
      order_info: { name: "Ann Lee", shipping_address: DEFAULT_ADDRESS },
    });
    expect(query.order_info?.phone_number).toMatch(/^\+49/);
    // Not asked for: not sent.
    expect(query.order_info?.email).toBeUndefined();
    await rawCall(tg, "answerPreCheckoutQuery", { pre_checkout_query_id: query.id, ok: true });
    const paid = await paying;
    expect(paid).toMatchObject({ status: "paid", totalAmount: 2_450, shippingOptionId: "post" });
    expect(paid.status === "paid" && paid.message.successful_payment).toMatchObject({
      total_amount: 2_450,
      shipping_option_id: "post",
      order_info: { name: "Ann Lee", shipping_address: DEFAULT_ADDRESS },
    });
  });

  it("sends the buyer's own address; a refusal ends the payment before any pre-checkout", async () => {
    await rawCall(tg, "sendInvoice", provider());
    const elsewhere = {
      ...DEFAULT_ADDRESS,
      country_code: "BR",
      city: "Recife",
      post_code: "50000",
    };
    const paying = ann.pay({ buyer: { shippingAddress: elsewhere } });
    const shipping = await next("shipping_query");
    expect(shipping.shipping_address).toEqual(elsewhere);
    await answerShipping({ shipping_query_id: shipping.id, ok: false, error_message: "Not to BR" });
    expect(await paying).toMatchObject({ status: "shipping-declined", errorMessage: "Not to BR" });
    expect(tg.pendingUpdates.some((u) => u.update.pre_checkout_query)).toBe(false);
    expect(tg.callsTo("answerPreCheckoutQuery")).toHaveLength(0);
  });

  it("fails the payment when the bot does not answer in time, and refuses the late answer", async () => {
    await rawCall(tg, "sendInvoice", provider());
    const payment = await ann.pay({ timeoutMs: 50 });
    expect(payment.status).toBe("shipping-timeout");
    const late = await answerShipping({
      shipping_query_id: payment.status === "shipping-timeout" ? payment.shippingQueryId : "",
      ok: true,
      shipping_options: OPTIONS,
    });
    expect(failure(late)).toMatch(/query is too old/);
  });

  it("validates answers as Telegram does", async () => {
    await rawCall(tg, "sendInvoice", provider());
    const paying = ann.pay();
    const { id } = await next("shipping_query");
    const refused = async (params: Record<string, unknown>) =>
      failure(await answerShipping({ shipping_query_id: id, ...params }));
    expect(await refused({ ok: true })).toBe(
      '400 400 Bad Request: parameter "shipping_options" is required',
    );
    expect(await refused({ ok: true, shipping_options: [] })).toBe(
      "400 400 Bad Request: SHIPPING_OPTIONS_EMPTY",
    );
    expect(await refused({ ok: true, shipping_options: [OPTIONS[0], OPTIONS[0]] })).toBe(
      "400 400 Bad Request: SHIPPING_ID_DUPLICATE",
    );
    expect(
      await refused({ ok: true, shipping_options: [{ id: "x", title: "X", prices: [] }] }),
    ).toBe("400 400 Bad Request: there must be at least one price");
    expect(await refused({ ok: false })).toBe(
      '400 400 Bad Request: parameter "error_message" is required',
    );
    // None of those counted as an answer; a good one does, once.
    expect(
      (await answerShipping({ shipping_query_id: id, ok: true, shipping_options: OPTIONS })).body
        .ok,
    ).toBe(true);
    expect(await refused({ ok: true, shipping_options: OPTIONS })).toMatch(/query is too old/);
    const query = await next("pre_checkout_query");
    expect(query.shipping_option_id).toBe("courier");
    await rawCall(tg, "answerPreCheckoutQuery", {
      pre_checkout_query_id: query.id,
      ok: false,
      error_message: "no",
    });
    expect(await paying).toMatchObject({ status: "declined" });
  });
});
