// Invoices as Telegram checks them: a total within the currency's bounds, a deep-link
// start_parameter, and what a forwarded copy can do: pay the same invoice without a
// start_parameter, only open the bot's deep link with one.
import { describe, expect, it } from "vitest";
import {
  type FakeTelegram,
  type SimulatedGroup,
  type SimulatedUser,
  TelegramErrors,
} from "../src/index.ts";
import { failure, rawCall } from "./support/raw.ts";
import { starsInvoice } from "./support/invoice.ts";
import { useFakeTelegram } from "./support/ann.ts";

let tg: FakeTelegram;
let ann: SimulatedUser;
let bob: SimulatedUser;
let lounge: SimulatedGroup;

useFakeTelegram({}, async (opened) => {
  tg = opened;
  ann = tg.createUser({ firstName: "Ann" });
  bob = tg.createUser({ firstName: "Bob" });
  await ann.send("/start");
  lounge = tg.createGroup({ title: "Lounge", creator: ann, members: [bob], bot: "member" });
});

const invoice = (extra: Record<string, unknown> = {}) => starsInvoice(ann, extra);

/** Answers the newest pre-checkout query ok, as the bot would. */
async function approveNextPreCheckout(seen: Set<string>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const id = tg.pendingUpdates
      .map((u) => u.update.pre_checkout_query?.id)
      .find((q): q is string => q !== undefined && !seen.has(q));
    if (id) {
      seen.add(id);
      await rawCall(tg, "answerPreCheckoutQuery", { pre_checkout_query_id: id, ok: true });
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error("no pre_checkout_query");
}

describe("an invoice's texts", () => {
  it("takes a title of 1-32 characters, counted as code points", async () => {
    expect((await rawCall(tg, "sendInvoice", invoice({ title: "🍵".repeat(32) }))).body.ok).toBe(
      true,
    );
    expect(failure(await rawCall(tg, "sendInvoice", invoice({ title: "t".repeat(33) })))).toBe(
      "400 400 Bad Request: INVOICE_TITLE_INVALID",
    );
    expect(failure(await rawCall(tg, "sendInvoice", invoice({ title: "" })))).toBe(
      '400 400 Bad Request: parameter "title" is required',
    );
  });

  it("takes a description of 1-255 characters", async () => {
    const at = (description: string) => rawCall(tg, "sendInvoice", invoice({ description }));
    expect((await at("🍵".repeat(255))).body.ok).toBe(true);
    expect(failure(await at("d".repeat(256)))).toBe(
      "400 400 Bad Request: INVOICE_DESCRIPTION_INVALID",
    );
    expect(failure(await at(""))).toBe('400 400 Bad Request: parameter "description" is required');
  });

  it("refuses a text that is not valid UTF-8: half an emoji", async () => {
    const half = "🍵".slice(0, 1);
    for (const field of ["title", "description", "payload"]) {
      const sent = await rawCall(tg, "sendInvoice", invoice({ [field]: `Tea ${half}` }));
      expect(failure(sent), field).toBe("400 400 Bad Request: strings must be encoded in UTF-8");
    }
    const label = await rawCall(
      tg,
      "sendInvoice",
      invoice({ prices: [{ label: `Tea ${half}`, amount: 5 }] }),
    );
    expect(failure(label)).toBe("400 400 Bad Request: strings must be encoded in UTF-8");
  });
});

describe("an invoice's total", () => {
  it("is 1-10000 Stars", async () => {
    const at = (amount: number) =>
      rawCall(tg, "sendInvoice", invoice({ prices: [{ label: "Widget", amount }] }));
    expect((await at(10_000)).body.ok).toBe(true);
    expect((await at(1)).body.ok).toBe(true);
    expect(failure(await at(10_001))).toBe(
      `400 400 ${TelegramErrors.CURRENCY_TOTAL_AMOUNT_INVALID}`,
    );
  });

  it("is US$1.00-10,000.00 in USD, summed over the prices", async () => {
    const usd = (...amounts: number[]) =>
      rawCall(
        tg,
        "sendInvoice",
        invoice({
          currency: "USD",
          provider_token: "284685063:TEST:abc",
          prices: amounts.map((amount, i) => ({ label: `Line ${i}`, amount })),
        }),
      );
    expect((await usd(100)).body.ok).toBe(true);
    expect((await usd(500_000, 500_000)).body.ok).toBe(true);
    expect(failure(await usd(99))).toBe(`400 400 ${TelegramErrors.CURRENCY_TOTAL_AMOUNT_INVALID}`);
    expect(failure(await usd(500_000, 500_001))).toBe(
      `400 400 ${TelegramErrors.CURRENCY_TOTAL_AMOUNT_INVALID}`,
    );
  });
});

describe("start_parameter", () => {
  it("is a deep-link parameter: 1-64 characters of A-Z a-z 0-9 _ -", async () => {
    const ok = await rawCall(tg, "sendInvoice", invoice({ start_parameter: "pay-AB_9".repeat(8) }));
    expect(ok.body.ok).toBe(true);
    const long = await rawCall(tg, "sendInvoice", invoice({ start_parameter: "p".repeat(65) }));
    expect(failure(long)).toBe(`400 400 ${TelegramErrors.START_PARAM_INVALID}`);
    const spaced = await rawCall(tg, "sendInvoice", invoice({ start_parameter: "pay me" }));
    expect(failure(spaced)).toBe(`400 400 ${TelegramErrors.START_PARAM_INVALID}`);
  });
});

describe("a forwarded invoice", () => {
  it("without start_parameter keeps its Pay button: someone else pays it where it was forwarded", async () => {
    const sent = await rawCall(tg, "sendInvoice", invoice());
    const original = (sent.body.result as { message_id: number }).message_id;
    const copy = await ann.forward(original, { to: lounge });
    expect(copy.message.invoice?.total_amount).toBe(5);
    expect(copy.message.forward_origin).toMatchObject({
      type: "user",
      sender_user: { is_bot: true },
    });

    const seen = new Set<string>();
    const paying = bob.pay({ in: lounge, invoice: copy.message });
    await approveNextPreCheckout(seen);
    const paid = await paying;
    expect(paid).toMatchObject({ status: "paid", payload: "order:1", totalAmount: 5 });
    if (paid.status !== "paid") return;
    // The successful_payment arrives in the chat it was paid in, from the payer.
    expect(paid.message.chat.id).toBe(lounge.id);
    expect(paid.message.from?.id).toBe(bob.id);
    expect(tg.charges.map((c) => c.userId)).toEqual([bob.id]);
  });

  it("with start_parameter gets a deep link to the bot instead, and cannot be paid", async () => {
    const sent = await rawCall(tg, "sendInvoice", invoice({ start_parameter: "pay-ORDER1" }));
    const original = (sent.body.result as { message_id: number }).message_id;
    const copy = await ann.forward(original, { to: lounge });
    expect(copy.message.reply_markup?.inline_keyboard).toEqual([
      [{ text: "Widget", url: `https://t.me/${tg.botInfo.username}?start=pay-ORDER1` }],
    ]);
    await expect(bob.pay({ in: lounge, invoice: copy.message })).rejects.toThrow(
      /forwarded invoice with a start_parameter/,
    );
    expect(tg.charges).toEqual([]);
    // The original is still the one to pay, in the chat it was sent to.
    const seen = new Set<string>();
    const paying = ann.pay();
    await approveNextPreCheckout(seen);
    expect(await paying).toMatchObject({ status: "paid" });
  });
});
