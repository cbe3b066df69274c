// The Stars ledger: getStarTransactions in Telegram's shape (a payment has the user as source, a
// refund the user as receiver and the charge's id), oldest first, paged by offset and limit with
// the Bot API server's clamping; charges seeded without an update, and refunds from outside.
import type { StarTransaction } from "@grammyjs/types";
import { describe, expect, it } from "vitest";
import type { FakeTelegram, SimulatedUser } from "../src/index.ts";
import { rawCall } from "./support/raw.ts";
import { useTelegramWithAnn } from "./support/ann.ts";

let tg: FakeTelegram;
let ann: SimulatedUser;
useTelegramWithAnn({}, (opened) => ({ tg, ann } = opened));

async function payInvoice(amount: number, payload: string, currency = "XTR"): Promise<string> {
  await rawCall(tg, "sendInvoice", {
    chat_id: ann.chatId,
    title: "Widget",
    description: "One widget",
    payload,
    currency,
    prices: [{ label: "Widget", amount }],
    ...(currency === "XTR" ? {} : { provider_token: "284685063:TEST:abc" }),
  });
  const paying = ann.pay();
  for (;;) {
    const query = tg.pendingUpdates.find((u) => u.update.pre_checkout_query)?.update
      .pre_checkout_query;
    if (query) {
      await rawCall(tg, "answerPreCheckoutQuery", { pre_checkout_query_id: query.id, ok: true });
      break;
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  const paid = await paying;
  if (paid.status !== "paid") throw new Error(`expected a payment, got ${paid.status}`);
  return paid.chargeId;
}

async function list(params: Record<string, unknown> = {}): Promise<StarTransaction[]> {
  const answer = await rawCall(tg, "getStarTransactions", params);
  expect(answer.body.ok).toBe(true);
  return (answer.body.result as { transactions: StarTransaction[] }).transactions;
}

describe("getStarTransactions", () => {
  it("lists a payment with its payer as source and its refund with the payer as receiver", async () => {
    const chargeId = await payInvoice(7, "order:1");
    await rawCall(tg, "refundStarPayment", {
      user_id: ann.id,
      telegram_payment_charge_id: chargeId,
    });
    const [payment, refund, ...rest] = await list();
    expect(rest).toEqual([]);
    const partner = {
      type: "user",
      transaction_type: "invoice_payment",
      user: expect.objectContaining({ id: ann.id, first_name: "Ann" }),
      invoice_payload: "order:1",
    };
    expect(payment).toEqual({ id: chargeId, amount: 7, date: expect.any(Number), source: partner });
    expect(refund).toEqual({
      id: chargeId,
      amount: 7,
      date: expect.any(Number),
      receiver: partner,
    });
    expect(refund!.date).toBeGreaterThanOrEqual(payment!.date);
    expect(Math.abs(payment!.date - Date.now() / 1000)).toBeLessThan(60);
  });

  it("pages oldest first by offset and limit, and clamps out-of-range values as Telegram does", async () => {
    const ids = Array.from(
      { length: 105 },
      (_, i) => tg.seedStarCharge({ user: ann, amount: i + 1 }).chargeId,
    );
    expect((await list()).map((t) => t.id)).toEqual(ids.slice(0, 100)); // default limit 100
    expect((await list({ offset: 100 })).map((t) => t.id)).toEqual(ids.slice(100));
    expect((await list({ offset: 3, limit: 2 })).map((t) => t.amount)).toEqual([4, 5]);
    expect(await list({ offset: 105 })).toEqual([]);
    expect((await list({ limit: 1000 })).length).toBe(100);
    expect((await list({ limit: 0 })).map((t) => t.id)).toEqual([ids[0]]);
    expect((await list({ offset: -5, limit: 1 })).map((t) => t.id)).toEqual([ids[0]]);
  });

  it("leaves other currencies out: they are the provider's, not the Stars balance", async () => {
    await payInvoice(500, "eur", "EUR");
    expect(tg.charges).toHaveLength(1);
    tg.seedStarCharge({ user: ann, amount: 3 });
    expect((await list()).map((t) => t.amount)).toEqual([3]);
  });
});

describe("test hooks", () => {
  it("seeds a charge the bot never hears of: in the ledger, no update", async () => {
    const before = tg.deliveries.length;
    const charge = tg.seedStarCharge({ user: ann, amount: 12, payload: "lost" });
    expect(tg.deliveries.length).toBe(before);
    expect(tg.starTransactions).toEqual([
      expect.objectContaining({ id: charge.chargeId, amount: 12, source: expect.anything() }),
    ]);
    expect(tg.charges.map((c) => c.chargeId)).toEqual([charge.chargeId]);
    expect(() => tg.seedStarCharge({ user: ann, amount: 0 })).toThrow(/positive integer/);
  });

  it("refunds from outside: ledger, refunded_payment to the payer, and the bot cannot refund again", async () => {
    const charge = tg.seedStarCharge({ user: ann, amount: 9, payload: "p9" });
    const refunded = tg.refundFromOutside(charge.chargeId);
    expect(refunded.refundedAt).toBeDefined();
    expect(tg.starTransactions.map((t) => [t.id, t.source ? "in" : "out"])).toEqual([
      [charge.chargeId, "in"],
      [charge.chargeId, "out"],
    ]);
    const service = tg.deliveries.at(-1)?.update.message;
    expect(service?.chat.id).toBe(ann.chatId);
    expect(service?.refunded_payment).toEqual({
      currency: "XTR",
      total_amount: 9,
      invoice_payload: "p9",
      telegram_payment_charge_id: charge.chargeId,
    });
    const again = await rawCall(tg, "refundStarPayment", {
      user_id: ann.id,
      telegram_payment_charge_id: charge.chargeId,
    });
    expect(again.body.description).toBe("Bad Request: CHARGE_ALREADY_REFUNDED");
    expect(() => tg.refundFromOutside(charge.chargeId)).toThrow(/already refunded/);
    expect(tg.starTransactions).toHaveLength(2);
  });
});
