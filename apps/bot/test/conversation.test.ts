// The conversation as people read it (issue: one language, cards that stay true, buttons instead of
// typing, a way to reach the shop): in-process bot, real HTTP, PostgreSQL and Redis, fake Telegram.
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

/** An order of one unit of `sku`, opened on its card through the deep link (/start pay-<id>). */
async function openOrder(
  user: SimulatedUser,
  sku: string,
): Promise<{ id: string; cardId: number }> {
  const result = await h.shop.orders.placeOrder({
    userId: user.id,
    chatId: user.id,
    items: [{ sku, quantity: 1 }],
    idempotencyKey: `conversation:${user.id}:${sku}`,
  });
  if (result.status !== "ok") throw new Error(`placeOrder: ${result.status}`);
  await user.send(`/start pay-${result.order.id}`);
  const card = await user.waitForMessage(new RegExp(`Order ${result.order.id}`));
  return { id: result.order.id, cardId: card.message_id };
}

/** The labels of a message's inline buttons, row by row. */
const labels = (markup: { inline_keyboard?: { text: string }[][] } | undefined) =>
  (markup?.inline_keyboard ?? []).flat().map((b) => b.text);

describe("/start, /help and the fallback", () => {
  it("offer the main actions as buttons", async () => {
    const ann = kit.createUser({ firstName: "Ann", languageCode: "en" });
    await ann.send("/start");
    const welcome = await ann.waitForMessage("Welcome, Ann!");
    const menu = ["🛍 Catalog", "🛒 Cart", "📦 My orders", "❓ Help", "✉️ Contact the shop"];
    expect(labels(welcome.reply_markup)).toEqual(menu);
    await ann.send("/help");
    expect(labels((await ann.waitForMessage(/\/catalog/)).reply_markup)).toEqual(menu);
    await ann.send("hi, do you ship to Berlin?");
    const fallback = await ann.waitForMessage(/did not understand/);
    expect(labels(fallback.reply_markup)).toEqual(["✉️ Ask the shop", ...menu]);
  });
});

describe("the order card", () => {
  it("is edited once the order is paid: paid, what happens next, no Pay or Cancel", async () => {
    const buyer = kit.createUser({ firstName: "Bea", languageCode: "en" });
    const { id, cardId } = await openOrder(buyer, "FAN-SILK");
    await buyer.press(/^Pay/, { messageId: cardId });
    await buyer.waitForMessage((m) => m.invoice !== undefined);
    expect((await buyer.pay()).status).toBe("paid");
    await buyer.waitForMessage(`Payment received: order ${id} is paid.`, { after: undefined });
    await buyer.waitForMessage((m) => m.message_id === cardId && /paid/.test(m.text ?? ""), {
      edits: true,
      after: undefined,
    });
    const card = buyer.view().messages.find((m) => m.message_id === cardId)!;
    expect(card.text).toContain("Status: paid");
    expect(card.text).toContain("the shop prepares your order");
    expect(labels(card.reply_markup)).toEqual(["◀ My orders", "🛍 Catalog"]);

    // The operators' notice names the order (the worker lists its items) and whom (the id masked).
    const [alert] = await eventsOf(h.db, `paid:${id}`);
    expect(alert).toMatchObject({
      template: "operator-order-paid",
      params: {
        orderId: id,
        customer: `Bea · ••••${String(buyer.id).slice(-4)}`,
      },
    });
  });

  it("gets one invoice under a double tap on Pay", async () => {
    const buyer = kit.createUser({ firstName: "Dot", languageCode: "en" });
    const { cardId } = await openOrder(buyer, "TEA-LONGJING");
    const first = await buyer.press(/^Pay/, { messageId: cardId });
    const second = await buyer.press(/^Pay/, { messageId: cardId });
    await Promise.all([first.handled(), second.handled()]);
    expect((await second.answered()).text).toBe(
      "The invoice is already in the chat, just below the order.",
    );
    expect(buyer.view().botMessages.filter((m) => m.invoice)).toHaveLength(1);
  });
});

describe("the operator group", () => {
  it("answers /help, /help@bot and /start with what operators can do", async () => {
    const username = h.app.bot.botInfo.username;
    for (const command of ["/help", `/help@${username}`, "/start"]) {
      await owner.send(command, { in: operators });
      expect((await operators.waitForMessage()).text, command).toMatch(
        /^What you can do in this group:\n\/orders/,
      );
    }
  });
});

describe("operator commands", () => {
  /** Sends a command in the group and returns the bot's reply. */
  async function say(text: string): Promise<string> {
    await owner.send(text, { in: operators });
    return (await operators.waitForMessage()).text ?? "";
  }

  it("take SKUs in any case, suggest a near miss, and say what a valid price is", async () => {
    expect(await say("/stock tea-longjing +1")).toMatch(/^TEA-LONGJING: stock \d+ → \d+\.$/);
    expect(await say("/stock TEA-LONGJNG +1")).toBe(
      "There is no product with SKU TEA-LONGJNG. Did you mean TEA-LONGJING?",
    );
    expect(await say("/price cup-celadon 18.50")).toContain(
      "Stars are whole numbers (25, not 18.50)",
    );
  });

  it("say a repeated refund was done already, and the report lists refunds with the currency", async () => {
    const buyer = kit.createUser({ firstName: "Ed", languageCode: "en" });
    const placed = await h.shop.orders.placeOrder({
      userId: buyer.id,
      chatId: buyer.id,
      items: [{ sku: "FAN-SILK", quantity: 1 }],
      idempotencyKey: `conversation:refund:${buyer.id}`,
    });
    if (placed.status !== "ok") throw new Error(placed.status);
    const order = placed.order;
    await h.shop.payments.confirmPayment({
      orderId: order.id,
      userId: buyer.id,
      telegramChargeId: `charge-${order.id}`,
      providerChargeId: null,
      amount: order.totalMinor,
      currency: order.currency,
    });
    expect(await say(`/refund ${order.id}`)).toBe(
      `Order ${order.id} is refunded; the customer's payment is being returned.`,
    );
    expect(await say(`/refund ${order.id}`)).toBe(
      `Order ${order.id} was refunded already; nothing more was done.`,
    );
    const report = await say("/report");
    expect(report).toMatch(/\nRefunded: \d+ · refunds under way: \d+\n/);
    expect(report).toMatch(/\nRevenue: \d+ ⭐/);
  });
});

describe("asking the shop", () => {
  it("passes a message the bot did not understand on to the operators, and their reply back", async () => {
    const cy = kit.createUser({ firstName: "Cy", username: "cy_buyer", languageCode: "en" });
    await cy.send("hi, do you ship to Berlin?");
    const fallback = await cy.waitForMessage(/did not understand/);
    await cy.press("✉️ Ask the shop", { messageId: fallback.message_id });
    const sent = await cy.waitForMessage(/has reached the shop/, { edits: true });
    // A second press (a double tap the client sent before the edit): still one question.
    const again = await cy.pressData(callbacks.menu.encode({ action: "ask" }), {
      messageId: fallback.message_id,
      force: true,
    });
    await again.handled();
    expect(await h.db.supportRequest.count({ where: { userId: BigInt(cy.id) } })).toBe(1);
    const request = await h.db.supportRequest.findFirstOrThrow({
      where: { userId: BigInt(cy.id) },
    });
    expect(sent.text).toBe(
      `Your question #${request.id} has reached the shop. An operator will answer you in this chat.`,
    );
    expect(request).toMatchObject({ topic: "question", text: "hi, do you ship to Berlin?" });
    const [alert] = await eventsOf(h.db, `support:${request.id}`);
    expect(alert).toMatchObject({
      template: "operator-support-request",
      params: { customer: "Cy (@cy_buyer)", text: "hi, do you ship to Berlin?" },
    });

    // The alert as the worker renders it (the outbox relay does not run here), answered by reply.
    const posted = await h.app.bot.api.sendMessage(
      operators.id,
      `Question #${request.id} from Cy (@cy_buyer)\nRecent orders:\n(none)\nMessage: hi, do you ship to Berlin?`,
    );
    await owner.send("Yes, in 3-5 days.", { in: operators, replyTo: posted.message_id });
    expect((await operators.waitForMessage()).text).toBe(
      `Sent to the customer as the answer to request #${request.id}.`,
    );
    const answers = await eventsOf(h.db, "question.answered:");
    expect(answers.filter((a) => a.payload.requestId === request.id)).toMatchObject([
      {
        recipients: [BigInt(cy.id)],
        template: "support-answer",
        params: { requestId: request.id, text: "Yes, in 3-5 days." },
      },
    ]);
  });

  it("takes a question written in reply to Contact the shop", async () => {
    const li = kit.createUser({ firstName: "Li", languageCode: "zh" });
    await li.send("/start");
    await li.waitForMessage(/欢迎/);
    await li.press("✉️ 联系商店");
    const prompt = await li.waitForMessage(/请回复本消息/);
    await li.send("可以开发票吗？", { replyTo: prompt.message_id });
    await li.waitForMessage(/您的问题 #\d+ 已送达商店/);
    expect(
      await h.db.supportRequest.findFirstOrThrow({ where: { userId: BigInt(li.id) } }),
    ).toMatchObject({ topic: "question", text: "可以开发票吗？" });
  });
});
