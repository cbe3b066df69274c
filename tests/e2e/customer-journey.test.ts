// A customer's whole journey, end to end: two bot processes behind one webhook URL (and, below,
// one in polling mode), the test kit as Telegram, real PostgreSQL and Redis.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SimulatedUser } from "@orderbot/fake-telegram";
import { OWNER_ID, startShop, type E2eShop } from "./support/shop.ts";

/** /catalog → Teaware → the celadon cup → quantity → Order → Pay, up to the invoice; returns the order id. */
async function orderCups(user: SimulatedUser, quantity: 1 | 2): Promise<string> {
  await user.send("/catalog");
  await user.waitForMessage("Catalog: pick a category.", { timeoutMs: 10_000 });
  await user.press(/^Teaware \(\d+\)$/);
  await user.waitForMessage(/^Teaware, page 1 of/, { edits: true });
  await user.press("Celadon tea cup");
  await user.waitForMessage("Quantity: 1, total 15 ⭐", { edits: true });
  if (quantity === 2) {
    await user.press("+");
    await user.waitForMessage("Quantity: 2, total 30 ⭐", { edits: true });
  }
  const total = 15 * quantity;
  await user.press(`Order ${quantity} for ${total} ⭐`);
  const order = await user.waitForMessage(/^Order [2-9A-Z]{8}/, { edits: true });
  const id = order.text!.slice(6, 14);
  expect(order.text).toContain(`Celadon tea cup × ${quantity}: ${total} ⭐`);
  await user.press(`Pay ${total} ⭐`);
  await user.waitForMessage((m) => m.invoice?.total_amount === total);
  return id;
}

/** /start, two cups ordered and paid, then /orders; returns the order id. */
async function buyTwoCups(shop: E2eShop, user: SimulatedUser): Promise<string> {
  await user.send("/start");
  await user.waitForMessage("Welcome", { timeoutMs: 10_000 });
  const id = await orderCups(user, 2);
  const payment = await user.pay();
  expect(payment.status).toBe("paid");
  await user.waitForMessage(`Payment received: order ${id} is paid.`);
  await user.send("/orders");
  const list = await user.waitForMessage("Your orders:");
  expect(list.text).toContain(`${id} · paid · 30 ⭐`);
  const stored = await shop.db.order.findUniqueOrThrow({
    where: { publicId: id },
    include: { payments: true },
  });
  expect(stored.status).toBe("PAID");
  expect(stored.payments).toHaveLength(1);
  return id;
}

const confirmations = (user: SimulatedUser, id: string) =>
  user.view().botMessages.filter((m) => m.text?.includes(`Payment received: order ${id} is paid.`));

/** As if the grace period of every waiting message had passed. */
/** What waits for a later time is due now: outbox rows, and events not yet expanded. */
async function dueNow(shop: E2eShop): Promise<void> {
  await shop.db
    .$executeRaw`UPDATE outbox_messages SET next_attempt_at = timezone('UTC', now()) - interval '1 second' WHERE status = 'PENDING'`;
  await shop.db
    .$executeRaw`UPDATE events SET not_before = timezone('UTC', now()) - interval '1 second' WHERE expanded_at IS NULL`;
}

describe("webhook mode, two replicas", () => {
  let shop: E2eShop;
  beforeAll(async () => {
    shop = await startShop({ mode: "webhook", replicas: 2 });
  });
  afterAll(() => shop?.stop());

  it("each replica asked who it is, then set the webhook with the secret and the updates it handles", () => {
    expect(shop.kit.callsTo("getMe").filter((c) => c.ok)).toHaveLength(2);
    const setWebhook = shop.kit.callsTo("setWebhook").filter((c) => c.ok);
    expect(setWebhook.length).toBeGreaterThanOrEqual(2);
    for (const call of setWebhook) {
      expect(call.params).toMatchObject({
        url: shop.webhookUrl,
        secret_token: shop.secret,
        allowed_updates: [
          "message",
          "callback_query",
          "pre_checkout_query",
          "shipping_query",
          "chat_member",
          "my_chat_member",
        ],
      });
    }
  });

  it("a customer buys, and the operator group hears of the paid order", async () => {
    const { kit } = shop;
    const owner = kit.createUser({ id: OWNER_ID, languageCode: "en" });
    const group = kit.createGroup({ title: "Operators", creator: owner });
    await owner.send("/bind", { in: group });
    await group.waitForMessage("This group is now the shop's operator group");

    const customer = kit.createUser({ firstName: "Dana", languageCode: "en" });
    const id = await buyTwoCups(shop, customer);

    // The payment recorded its event (it must survive a crash); the worker's relay sends it.
    const recorded = await shop.db.$queryRaw<{ kind: string }[]>`
      SELECT kind FROM events WHERE dedupe_key = ${`paid:${id}`}`;
    expect(recorded).toEqual([{ kind: "order.paid" }]);
    await shop.relayOutbox();
    await group.waitForMessage(`Order ${id} was paid`);
    // Both replicas took part.
    expect(shop.proxy!.stats.forwarded.every((n) => n > 0)).toBe(true);

    // The copy of the confirmation queued with the payment was settled by the bot's reply: even
    // once due, the relay does not say it a second time.
    await dueNow(shop);
    await shop.relayOutbox();
    expect(confirmations(customer, id)).toHaveLength(1);
  });

  it("a payment whose confirmation the bot could not send still reaches the customer, once, from the worker", async () => {
    const { kit } = shop;
    const customer = kit.createUser({ firstName: "Fei", languageCode: "en" });
    const id = await orderCups(customer, 1);
    // Telegram refuses the bot's reply to the payment for longer than the bot waits.
    const refuse = kit.faults.refuseNext("sendMessage", customer.id);
    const payment = await customer.pay();
    if (payment.status !== "paid") throw new Error(`payment ${payment.status}`);
    await payment.handled();
    refuse.remove();
    expect(refuse.injected).toBe(1);
    expect(confirmations(customer, id)).toHaveLength(0);

    await shop.relayOutbox(); // not due yet: the bot had its grace period to say it first
    expect(confirmations(customer, id)).toHaveLength(0);
    await dueNow(shop);
    await shop.relayOutbox();
    await customer.waitForMessage(`Payment received: order ${id} is paid.`);
    await dueNow(shop);
    await shop.relayOutbox();
    expect(confirmations(customer, id)).toHaveLength(1);
  });
});

describe("polling mode", () => {
  let shop: E2eShop;
  beforeAll(async () => {
    shop = await startShop({ mode: "polling" });
  });
  afterAll(() => shop?.stop());

  it("the same journey passes", async () => {
    const customer = shop.kit.createUser({ firstName: "Eli", languageCode: "en" });
    await buyTwoCups(shop, customer);
    expect(shop.kit.callsTo("getUpdates").length).toBeGreaterThan(0);
    expect(shop.kit.callsTo("setWebhook")).toHaveLength(0);
  });
});
