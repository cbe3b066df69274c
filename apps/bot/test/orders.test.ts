// Orders beyond the happy path: double taps, cancelling, stale and crafted buttons, stock running
// out, and payments that must not go through. In-process bot, real HTTP, PostgreSQL and Redis.
import { describe, expect, it } from "vitest";
import { paymentNoticeKey } from "@orderbot/core/payments";
import { eventsOf } from "./support/events.ts";
import type { FakeTelegram, SimulatedUser } from "@orderbot/fake-telegram";
import { callbacks } from "@orderbot/conversation";
import type { BotHarness } from "./support/harness.ts";
import { useBotHarness } from "./support/operators.ts";

let h: BotHarness, kit: FakeTelegram;
useBotHarness({}, (opened) => ({ h, kit } = opened));

const stockOf = async (sku: string) =>
  (await h.db.product.findUniqueOrThrow({ where: { sku } })).stock;
const ordersOf = (user: SimulatedUser) =>
  h.db.order.findMany({ where: { userId: BigInt(user.id) } });

/** Opens a product card at `qty` the way a user does, and returns its Order button's data (not pressed yet). */
async function openCard(user: SimulatedUser, sku: string, qty = 1): Promise<string> {
  const product = await h.db.product.findUniqueOrThrow({ where: { sku } });
  await user.send(product.titleEn);
  await user.waitForMessage(/^Found \d+ for/);
  await user.press(product.titleEn);
  await user.waitForMessage("Quantity: 1,", { edits: true });
  for (let n = 2; n <= qty; n++) {
    await user.press("+");
    await user.waitForMessage(`Quantity: ${n},`, { edits: true });
  }
  const buttons = user.lastMessage()!.reply_markup!.inline_keyboard.flat();
  const order = buttons.find((b) => "callback_data" in b && b.callback_data.startsWith("o:"));
  return (order as { callback_data: string }).callback_data;
}

async function placeOrder(user: SimulatedUser, sku: string, qty = 1): Promise<string> {
  await user.pressData(await openCard(user, sku, qty));
  const placed = await user.waitForMessage(/Order [2-9A-Z]{8}/, { edits: true });
  return /Order ([2-9A-Z]{8})/.exec(placed.text!)![1]!;
}

/** Places an order and presses Pay: the invoice is on screen. Returns the order id. */
async function placeOrderToInvoice(user: SimulatedUser, sku: string): Promise<string> {
  const id = await placeOrder(user, sku);
  await user.press(/^Pay/);
  await user.waitForMessage((m) => m.invoice !== undefined);
  return id;
}

describe("ordering", () => {
  it("records the order's card: the message showing it, a new one when it replaced a photo card", async () => {
    for (const sku of ["CUP-CELADON", "TEA-KEEMUN"]) {
      const user = kit.createUser({ languageCode: "en" });
      await (await user.pressData(await openCard(user, sku))).handled();
      const card = user.view().botMessages.findLast((m) => /^Order [2-9A-Z]{8}/.test(m.text ?? ""));
      const id = /^Order ([2-9A-Z]{8})/.exec(card!.text!)![1]!;
      const shown = await h.db.orderMessages.findUniqueOrThrow({ where: { orderPublicId: id } });
      expect(shown.cardMessageId, sku).toBe(card!.message_id);
    }
  });

  it("a double tap on Order places one order", async () => {
    const user = kit.createUser({ languageCode: "en" });
    const before = await stockOf("CUP-CELADON");
    const order = await openCard(user, "CUP-CELADON", 2);
    const first = await user.pressData(order);
    const second = await user.pressData(order);
    await Promise.all([first.handled(), second.handled()]);
    await Promise.all([first.answered(), second.answered()]);
    expect(await ordersOf(user)).toHaveLength(1);
    expect(await stockOf("CUP-CELADON")).toBe(before - 2);
  });

  it("cancelling returns the stock, and a stale Pay on the cancelled order is refused clearly", async () => {
    const user = kit.createUser({ languageCode: "en" });
    const before = await stockOf("FAN-SILK");
    const id = await placeOrder(user, "FAN-SILK", 3);
    expect(await stockOf("FAN-SILK")).toBe(before - 3);
    const orderMessage = user.lastMessage()!;

    const cancel = await user.press("Cancel order");
    expect((await cancel.answered()).text).toBe(
      `Order ${id} is cancelled and its items are back on sale.`,
    );
    expect(await stockOf("FAN-SILK")).toBe(before);

    // The Pay button of an older copy of the order (a message the user still has on screen).
    const stale = await user.pressData(callbacks.pay.encode({ orderId: id }), {
      messageId: orderMessage.message_id,
      force: true,
    });
    const answer = await stale.answered();
    expect(answer).toMatchObject({
      showAlert: true,
      text: `Order ${id} was cancelled, so it can no longer be paid. Place a new order from /catalog.`,
    });
    expect(kit.callsTo("sendInvoice")).toHaveLength(0);
  });

  it("refuses crafted buttons for someone else's order as for none, and changes nothing", async () => {
    const owner = kit.createUser({ languageCode: "en" });
    const intruder = kit.createUser({ languageCode: "en" });
    const id = await placeOrder(owner, "MUG-PANDA");
    await intruder.send("/start");
    await intruder.waitForMessage("Welcome");
    // Someone else's order and one that does not exist are answered alike.
    for (const orderId of [id, "ZZZZZZZZ"])
      for (const data of [
        callbacks.cancel.encode({ orderId }),
        callbacks.pay.encode({ orderId }),
        callbacks.orderView.encode({ orderId }),
      ]) {
        const press = await intruder.pressData(data, { force: true });
        expect(await press.answered()).toMatchObject({
          showAlert: true,
          text: "You have no order with that number.",
        });
      }
    expect((await h.db.order.findUniqueOrThrow({ where: { publicId: id } })).status).toBe(
      "RESERVED",
    );
  });

  it("answers malformed button data without acting on it", async () => {
    const user = kit.createUser({ languageCode: "en" });
    await user.send("/start");
    await user.waitForMessage("Welcome");
    // f:1001: a search page past the last one core serves.
    for (const data of ["o:1:0:1", "x:lowercase", "zzz", "y:ABCDEFGH:extra", "f:1001:tea"]) {
      const press = await user.pressData(data, { force: true });
      expect((await press.answered()).text).toBe("This button is no longer valid.");
    }
    expect(await ordersOf(user)).toHaveLength(0);
  });

  it("says what is short when the stock ran out, and reserves nothing", async () => {
    const user = kit.createUser({ languageCode: "en" });
    const order = await openCard(user, "POT-YIXING", 5);
    await h.db.product.update({ where: { sku: "POT-YIXING" }, data: { stock: 2 } });
    const press = await user.pressData(order);
    expect(await press.answered()).toMatchObject({
      showAlert: true,
      text: "Sorry, not enough in stock: Yixing clay teapot (only 2 left).",
    });
    expect(await ordersOf(user)).toHaveLength(0);
    expect(await stockOf("POT-YIXING")).toBe(2);
  });
});

describe("paying", () => {
  it("declines the pre-checkout of an order that has expired, inside Telegram's deadline", async () => {
    const user = kit.createUser({ languageCode: "en" });
    const id = await placeOrderToInvoice(user, "SET-TRAVEL");
    await h.db.order.update({
      where: { publicId: id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const payment = await user.pay();
    expect(payment).toMatchObject({
      status: "declined",
      errorMessage: "This order has expired. Nothing was charged; please order again.",
    });
    expect(await h.db.payment.count({ where: { order: { publicId: id } } })).toBe(0);
  });

  it("confirms a payment once, however often Telegram delivers it", async () => {
    const user = kit.createUser({ languageCode: "en" });
    const id = await placeOrderToInvoice(user, "MOONCAKE-BOX");
    const payment = await user.pay();
    if (payment.status !== "paid") throw new Error(`payment ${payment.status}`);
    await user.waitForMessage(`order ${id} is paid`);
    await payment.handled();

    // The same update again (a re-delivery), and the same payment in a new update.
    expect(await h.postUpdate(payment.update)).toBe(200);
    expect(
      await h.postUpdate({ ...payment.update, update_id: payment.update.update_id + 1_000_000 }),
    ).toBe(200);

    const confirmations = user
      .view()
      .botMessages.filter((m) => m.text?.startsWith("Payment received"));
    expect(confirmations).toHaveLength(1);
    expect(await h.db.payment.count({ where: { order: { publicId: id } } })).toBe(1);
    // The event recorded with the payment is settled by the reply: expanded to nobody, the worker
    // will not send it again.
    const settled = await h.db.event.findMany({
      where: { deliveryKey: paymentNoticeKey(id) },
      include: { deliveries: true },
    });
    expect(settled).toMatchObject([{ kind: "payment.received", deliveries: [] }]);
    expect(settled[0]!.expandedAt).not.toBeNull();
  });
});

describe("a payment confirmation that fails to send", () => {
  it("stays queued in the outbox for the worker to deliver after the grace period", async () => {
    const user = kit.createUser({ languageCode: "en" });
    const id = await placeOrderToInvoice(user, "MOONCAKE-BOX");
    // Telegram refuses the reply for longer than the bot waits: the bot gives up on it at once.
    const refuse = kit.faults.refuseNext("sendMessage", user.id);
    const payment = await user.pay();
    if (payment.status !== "paid") throw new Error(`payment ${payment.status}`);
    expect(await payment.handled()).toMatchObject({ status: "delivered" });
    refuse.remove();
    expect(refuse.injected).toBe(1);
    expect(user.view().botMessages.filter((m) => m.text?.startsWith("Payment received"))).toEqual(
      [],
    );
    const [queued, ...more] = await eventsOf(h.db, `payment.received:${id}`);
    expect(more).toEqual([]);
    expect(queued).toMatchObject({
      recipients: [BigInt(user.id)],
      template: "payment-received",
      params: { orderId: id, hasCodes: "no" },
    });
    const event = await h.db.event.findUniqueOrThrow({
      where: { dedupeKey: `payment.received:${id}` },
    });
    expect(event.expandedAt).toBeNull();
    expect(event.notBefore!.getTime()).toBeGreaterThan(Date.now());
    expect(await h.db.payment.count({ where: { order: { publicId: id } } })).toBe(1);
  });
});

describe("every button press in this file", () => {
  it("was answered exactly once", () => {
    const pressed = kit.deliveries.flatMap((d) =>
      d.update.callback_query ? [d.update.callback_query.id] : [],
    );
    const answers = kit
      .callsTo("answerCallbackQuery")
      .filter((c) => c.ok)
      .map((c) => String(c.params.callback_query_id));
    expect(pressed.length).toBeGreaterThan(10);
    expect(answers.sort()).toEqual(pressed.sort());
  });
});
