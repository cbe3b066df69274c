// Acceptance: a real grammY bot, pointed at the kit with client.apiRoot, completes
// message -> button -> invoice -> payment, by webhook and by long polling.
import type { Bot } from "grammy";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeTelegram, type SimulatedUser, startFakeTelegram } from "../src/index.ts";
import { createShopBot, serveWebhook, type WebhookReceiver } from "./support/shop-bot.ts";

async function shopRoundTrip(tg: FakeTelegram, user: SimulatedUser): Promise<void> {
  await user.send("/start");
  const welcome = await user.waitForMessage(/Welcome, Ann/);
  expect(welcome.reply_markup?.inline_keyboard[0]?.[0]).toEqual({
    text: "Order",
    callback_data: "o:widget:2",
  });

  const order = await user.press("Order");
  expect(await order.answered()).toMatchObject({ text: "Reserved", showAlert: false });
  const edited = await user.waitForMessage(/reserved/, { edits: true });
  expect(edited.message_id).toBe(welcome.message_id);
  expect(edited.edit_date).toBeDefined();
  expect(tg.chat(user).buttons).toEqual(["Pay", "Cancel"]);

  await user.press("Pay");
  const invoice = await user.waitForMessage((m) => m.invoice !== undefined);
  expect(invoice.invoice).toMatchObject({ currency: "XTR", total_amount: 10, title: "Widget" });

  const payment = await user.pay();
  expect(payment.status).toBe("paid");
  if (payment.status !== "paid") return;
  expect(payment.chargeId).toMatch(/^stx/);
  expect(payment.payload).toBe("order:widget:2");
  expect(await user.waitForMessage(/Paid 10 XTR/)).toBeDefined();
  expect((await payment.handled()).status).toBe("delivered");

  const methods = tg.calls.map((c) => c.method);
  expect(methods).toEqual(
    expect.arrayContaining([
      "sendMessage",
      "answerCallbackQuery",
      "editMessageText",
      "sendInvoice",
      "answerPreCheckoutQuery",
    ]),
  );
  expect(tg.calls.every((c) => c.ok)).toBe(true);
  const updateIds = tg.deliveries.map((d) => d.update.update_id);
  expect(updateIds).toEqual([...updateIds].sort((a, b) => a - b));
  expect(new Set(updateIds).size).toBe(updateIds.length);
}

describe("a grammY bot completes the shop round trip", () => {
  let tg: FakeTelegram;
  let bot: Bot;

  beforeEach(async () => {
    tg = await startFakeTelegram();
    bot = createShopBot(tg);
  });
  afterEach(async () => {
    await tg.close();
  });

  it("by webhook, with the secret header checked by grammY", async () => {
    let receiver: WebhookReceiver | undefined;
    try {
      receiver = await serveWebhook(bot, "s3cret-token_1");
      await bot.init();
      await bot.api.setWebhook(receiver.url, { secret_token: "s3cret-token_1" });
      expect(tg.webhookInfo().url).toBe(receiver.url);
      const ann = tg.createUser({ firstName: "Ann", languageCode: "en" });
      await shopRoundTrip(tg, ann);
      const attempts = tg.deliveries.flatMap((d) => d.attempts);
      expect(attempts.every((a) => a.via === "webhook" && a.httpStatus === 200)).toBe(true);
    } finally {
      await receiver?.close();
    }
  });

  it("by long polling (bot.start), stopped at the end", async () => {
    const started = new Promise<void>(
      (resolve) => void bot.start({ onStart: () => resolve(), timeout: 5 }),
    );
    await started;
    try {
      const ann = tg.createUser({ firstName: "Ann", languageCode: "en" });
      await shopRoundTrip(tg, ann);
      expect(tg.callsTo("getUpdates").length).toBeGreaterThan(1);
    } finally {
      await bot.stop();
    }
    expect(tg.pendingUpdates).toEqual([]);
  });
});
