// Checkout edges: invoices that a forwarded copy cannot pay (and the deep link it gets instead), a
// payment recorded in whatever chat it arrives, an invoice Telegram refuses, order totals one
// invoice cannot ask, and /paysupport and /terms. In-process bot, real HTTP, PostgreSQL and Redis.
import { describe, expect, it } from "vitest";
import type { FakeTelegram, SimulatedGroup, SimulatedUser } from "@orderbot/fake-telegram";
import { callbacks } from "@orderbot/conversation";
import type { BotHarness } from "./support/harness.ts";
import { useOperatorGroup } from "./support/operators.ts";
import { eventsOf } from "./support/events.ts";

let h: BotHarness, kit: FakeTelegram;
let owner: SimulatedUser, operators: SimulatedGroup;
useOperatorGroup(
  { title: "Shop operators", admins: [], member: false, bind: "command" },
  (opened) => ({ h, kit, owner, group: operators } = opened),
);

/** Orders one unit of `sku` from its card and returns the order id (the Pay button is on screen). */
async function placeOrder(user: SimulatedUser, sku: string, qty = 1): Promise<string> {
  const product = await h.db.product.findUniqueOrThrow({ where: { sku } });
  await user.send("/catalog");
  await user.waitForMessage("Catalog");
  await user.pressData(
    callbacks.order.encode({ productId: product.id, qty, categoryId: 0, page: 1 }),
    {
      force: true,
    },
  );
  const placed = await user.waitForMessage(/Order [2-9A-Z]{8}/, { edits: true });
  return /Order ([2-9A-Z]{8})/.exec(placed.text!)![1]!;
}

describe("invoices and their forwarded copies", () => {
  it("carry a deep link: a forwarded copy cannot be paid, and the link opens the order for its owner only", async () => {
    const buyer = kit.createUser({ firstName: "Buyer", languageCode: "en" });
    const friend = kit.createUser({ firstName: "Friend", languageCode: "en" });
    await friend.send("/start");
    await friend.waitForMessage("Welcome");
    const id = await placeOrder(buyer, "FAN-SILK");
    await buyer.press(/^Pay/);
    const invoice = await buyer.waitForMessage((m) => m.invoice !== undefined);
    expect(invoice.invoice?.start_parameter).toBe(`pay-${id}`);

    const lounge = kit.createGroup({ title: "Lounge", creator: buyer, members: [friend] });
    const copy = await buyer.forward(invoice.message_id, { to: lounge });
    await expect(friend.pay({ in: lounge, invoice: copy.message })).rejects.toThrow(
      /start_parameter/,
    );
    expect(kit.charges).toEqual([]);

    // The copy's button: t.me/<bot>?start=pay-<order>.
    const link = copy.message.reply_markup?.inline_keyboard[0]?.[0];
    expect(link && "url" in link ? link.url : "").toBe(
      `https://t.me/${kit.botInfo.username}?start=pay-${id}`,
    );
    // Someone else's order and one that does not exist are answered alike.
    const unknown =
      "That payment link is not for an order of yours: only whoever placed an order can pay it. To buy the same, pick it from /catalog.";
    await friend.send(`/start pay-${id}`);
    expect((await friend.waitForMessage()).text).toBe(unknown);
    await buyer.send(`/start pay-${id}`);
    const card = await buyer.waitForMessage(`Order ${id}`);
    expect(card.reply_markup?.inline_keyboard.flat().map((b) => b.text)).toContain("Pay 30 ⭐");
    await buyer.send("/start pay-ZZZZZZZZ");
    expect((await buyer.waitForMessage()).text).toBe(unknown);
  });

  it("records a payment that arrives in a group (an old invoice without a deep link, paid where it was forwarded)", async () => {
    const buyer = kit.createUser({ firstName: "Buyer", languageCode: "en" });
    const id = await placeOrder(buyer, "MUG-PANDA");
    const order = await h.db.order.findUniqueOrThrow({ where: { publicId: id } });
    // As invoices were sent before they carried a start_parameter.
    const old = await h.app.bot.api.sendInvoice(buyer.id, `Order ${id}`, "Panda mug", id, "XTR", [
      { label: `Order ${id}`, amount: order.totalMinor },
    ]);
    const lounge = kit.createGroup({ title: "Buyer's lounge", creator: buyer });
    const copy = await buyer.forward(old.message_id, { to: lounge });
    const payment = await buyer.pay({ in: lounge, invoice: copy.message });
    if (payment.status !== "paid") throw new Error(`payment ${payment.status}`);
    expect(payment.message.chat.id).toBe(lounge.id);
    await payment.handled();

    expect(
      await h.db.payment.findMany({ where: { telegramChargeId: payment.chargeId } }),
    ).toMatchObject([{ orderId: order.id, amountMinor: order.totalMinor }]);
    expect((await h.db.order.findUniqueOrThrow({ where: { id: order.id } })).status).toBe("PAID");
    // Nothing about the buyer's order is said in the group.
    expect(kit.chat(lounge).botMessages).toEqual([]);
  });
});

describe("an invoice Telegram refuses", () => {
  it("is answered with what happened, not 'Invoice sent'", async () => {
    const buyer = kit.createUser({ firstName: "Buyer", languageCode: "en" });
    const id = await placeOrder(buyer, "TEA-LONGJING");
    // An order whose total is above what one Stars invoice may ask (placed before the limit).
    await h.db.order.update({ where: { publicId: id }, data: { totalMinor: 10_001 } });
    const press = await buyer.press(/^Pay/);
    expect(await press.answered()).toMatchObject({
      text: `The shop could not create the invoice for order ${id}; nothing was charged. Please try again later, or ask for help with /paysupport.`,
      showAlert: true,
    });
    await press.handled();
    expect(kit.callsTo("sendInvoice").at(-1)?.description).toBe(
      "Bad Request: CURRENCY_TOTAL_AMOUNT_INVALID",
    );
    expect(buyer.view().botMessages.filter((m) => m.invoice)).toEqual([]);
  });
});

describe("an order total one invoice cannot ask", () => {
  it("is refused at Order with the range, and nothing is reserved", async () => {
    const buyer = kit.createUser({ firstName: "Buyer", languageCode: "en" });
    await h.db.product.update({ where: { sku: "POT-YIXING" }, data: { priceMinor: 6_000 } });
    const before = await h.db.product.findUniqueOrThrow({ where: { sku: "POT-YIXING" } });
    await buyer.send("/catalog");
    await buyer.waitForMessage("Catalog");
    const press = await buyer.pressData(
      callbacks.order.encode({ productId: before.id, qty: 2, categoryId: 0, page: 1 }),
      { force: true },
    );
    expect(await press.answered()).toMatchObject({
      text: "This order's total, 12000 ⭐, is outside what one invoice can ask (1 ⭐ to 10000 ⭐). Nothing was reserved; please change the quantity.",
      showAlert: true,
    });
    expect(await h.db.order.count({ where: { userId: BigInt(buyer.id) } })).toBe(0);
    const after = await h.db.product.findUniqueOrThrow({ where: { sku: "POT-YIXING" } });
    expect(after).toMatchObject({ stock: before.stock, version: before.version });
  });
});

describe("/paysupport and /terms", () => {
  it("/paysupport opens a request the operator group sees, with the buyer and their recent orders", async () => {
    const buyer = kit.createUser({
      firstName: "Ann",
      lastName: "Lee",
      username: "ann_lee",
      languageCode: "en",
    });
    const id = await placeOrder(buyer, "FAN-SILK");
    await buyer.send("/paysupport I was charged but the order says reserved");
    const reply = await buyer.waitForMessage(/has reached the shop/);
    const request = await h.db.supportRequest.findFirstOrThrow({
      where: { userId: BigInt(buyer.id) },
    });
    expect(request).toMatchObject({
      chatId: BigInt(buyer.id),
      topic: "paysupport",
      text: "I was charged but the order says reserved",
    });
    expect(reply.text).toBe(
      `Your request #${request.id} has reached the shop. An operator will answer you in this chat.`,
    );
    expect(await eventsOf(h.db, `support:${request.id}`)).toMatchObject([
      {
        kind: "question.asked",
        template: "operator-support-request",
        params: {
          requestId: request.id,
          customer: "Ann Lee (@ann_lee)",
          text: "I was charged but the order says reserved",
        },
        facts: {
          recentOrders: [{ orderId: id, status: "RESERVED", amountMinor: 30, currency: "XTR" }],
        },
      },
    ]);
  });

  it("an operator's reply to the request's alert goes to the customer, once", async () => {
    const buyer = kit.createUser({ firstName: "Cy", languageCode: "en" });
    await buyer.send("/paysupport double charge");
    await buyer.waitForMessage(/has reached the shop/);
    const request = await h.db.supportRequest.findFirstOrThrow({
      where: { userId: BigInt(buyer.id) },
    });
    // The alert as the worker posts it in the group (the outbox relay does not run here).
    const alert = await h.app.bot.api.sendMessage(
      operators.id,
      `Question #${request.id} from Cy (about a payment)\nRecent orders:\n(none)\nMessage: double charge`,
    );
    const answer = await owner.send("Refunded, sorry about that", {
      in: operators,
      replyTo: alert.message_id,
    });
    expect((await operators.waitForMessage()).text).toBe(
      `Sent to the customer as the answer to request #${request.id}.`,
    );
    // The same message in a new update (as after a lost 200): answered once all the same.
    expect(
      await h.postUpdate({ ...answer.update, update_id: answer.update.update_id + 1_000_000 }),
    ).toBe(200);
    const answers = await eventsOf(h.db, "question.answered:");
    expect(answers.filter((a) => a.payload.requestId === request.id)).toMatchObject([
      {
        recipients: [BigInt(buyer.id)],
        template: "support-answer",
        params: { requestId: request.id, text: "Refunded, sorry about that" },
      },
    ]);
  });

  it("/paysupport alone asks for details too; /terms shows the shop's terms", async () => {
    const buyer = kit.createUser({ firstName: "Bo", languageCode: "zh" });
    await buyer.send("/paysupport");
    const reply = await buyer.waitForMessage(/已送达商店/);
    expect(reply.text).toContain("/paysupport 加上您的留言");
    await buyer.send("/terms");
    expect((await buyer.waitForMessage()).text).toMatch(/^销售条款\n/);
  });
});
