// Operators moving paid orders on from the group: /order's next-step buttons, Ship asking for a
// tracking note by reply, /process /ship /deliver typed, a second press told who moved it and
// when, refunds after shipping that need a reason, and the customer's card with its history.
import { describe, expect, it } from "vitest";
import { FULFILMENT_STEPS } from "@orderbot/core/fulfilment";
import { eventsOf } from "./support/events.ts";
import type { FakeTelegram, SimulatedGroup, SimulatedUser } from "@orderbot/fake-telegram";
import { callbacks, fulfilmentButtons } from "@orderbot/conversation";
import type { BotHarness } from "./support/harness.ts";
import { useOperatorGroup } from "./support/operators.ts";

let h: BotHarness, kit: FakeTelegram, group: SimulatedGroup;
let owner: SimulatedUser, admin: SimulatedUser, member: SimulatedUser;
let seq = 0;
useOperatorGroup(
  { bind: "core", admins: [{ firstName: "Ada", username: "ada_ops" }] },
  (opened) => ({ h, kit, owner, admin, member, group } = opened),
);

/** A paid order of a new customer, placed and paid through core (the customer's side is tested elsewhere). */
async function paidOrder(): Promise<{ id: string; customer: SimulatedUser }> {
  const customer = kit.createUser({ firstName: "Cleo", languageCode: "en" });
  const product = await h.db.product.findFirstOrThrow({ where: { stock: { gt: 5 } } });
  const placed = await h.shop.orders.placeOrder({
    userId: customer.id,
    chatId: customer.id,
    items: [{ sku: product.sku, quantity: 1 }],
    idempotencyKey: `fulfilment-${++seq}`,
  });
  if (placed.status !== "ok") throw new Error(`order not placed: ${placed.status}`);
  const paid = await h.shop.payments.confirmPayment({
    orderId: placed.order.id,
    userId: customer.id,
    telegramChargeId: `charge-fulfilment-${seq}`,
    amount: placed.order.totalMinor,
    currency: placed.order.currency,
  });
  expect(paid.status).toBe("ok");
  return { id: placed.order.id, customer };
}

async function say(user: SimulatedUser, text: string, replyTo?: number): Promise<string> {
  await user.send(text, { in: group, ...(replyTo ? { replyTo } : {}) });
  return (await group.waitForMessage()).text ?? "";
}

const statusOf = async (id: string) =>
  (await h.db.order.findUniqueOrThrow({ where: { publicId: id } })).status;

describe("fulfilment from the operator group", () => {
  it("ships by button with a tracking note by reply; a second press is told who shipped it and when", async () => {
    const { id } = await paidOrder();
    await admin.send(`/order ${id}`, { in: group });
    const card = await group.waitForMessage(new RegExp(`Order ${id}`));
    const labels = card.reply_markup!.inline_keyboard.flat().map((b) => b.text);
    expect(labels).toEqual(expect.arrayContaining(["📦 Start preparing", "🚚 Mark shipped"]));

    await admin.press("🚚 Mark shipped", { in: group, messageId: card.message_id });
    const prompt = await group.waitForMessage(/Reply to this message with the tracking note/);
    expect(await statusOf(id)).toBe("PAID");

    expect(await say(admin, "DHL 00340434", prompt.message_id)).toBe(
      `Order ${id} is shipped (@ada_ops), tracking: DHL 00340434. The customer has been told.`,
    );
    expect(await statusOf(id)).toBe("SHIPPED");
    const done = group.lastMessage()!;
    expect(done.reply_markup!.inline_keyboard.flat().map((b) => b.text)).toEqual([
      "✅ Mark delivered",
    ]);
    const shippedNotice = () => eventsOf(h.db, `order.moved:${id}:SHIPPED`);
    expect(await shippedNotice()).toMatchObject([
      { template: "order-status", params: { note: "DHL 00340434" } },
    ]);

    // The owner presses the old Ship button: told at once, nothing changes.
    const second = await owner.press("🚚 Mark shipped", { in: group, messageId: card.message_id });
    const answer = await second.answered();
    expect(answer.showAlert).toBe(true);
    expect(answer.text).toMatch(
      new RegExp(
        `^Already done: order ${id} is shipped since .+, by @ada_ops\\. Nothing was changed\\.$`,
      ),
    );
    // And replying to the old prompt again ships nothing twice.
    await owner.send("UPS 1Z", { in: group, replyTo: prompt.message_id });
    expect((await group.waitForMessage()).text).toMatch(/^Already done: order .* by @ada_ops/);
    expect(await shippedNotice()).toHaveLength(1);

    await admin.press("✅ Mark delivered", { in: group, messageId: done.message_id });
    expect((await group.waitForMessage(/is delivered/)).text).toBe(
      `Order ${id} is delivered (@ada_ops). The customer has been told.`,
    );
    expect(await statusOf(id)).toBe("DELIVERED");
    // The pressed buttons are gone; the answer offers nothing more to do.
    expect(
      group.view().botMessages.find((m) => m.message_id === done.message_id)?.reply_markup,
    ).toBeUndefined();
  });

  it("tells an operator who sends the note as a plain message to reply, once, and ships nothing", async () => {
    const { id } = await paidOrder();
    await admin.send(`/order ${id}`, { in: group });
    const card = await group.waitForMessage(new RegExp(`Order ${id}`));
    await admin.press("🚚 Mark shipped", { in: group, messageId: card.message_id });
    const prompt = await group.waitForMessage(/Reply to this message with the tracking note/);
    const botMessages = () => group.view().botMessages.length;
    const shown = botMessages();
    await (await member.send("Lunch at one?", { in: group })).handled();
    expect(botMessages()).toBe(shown);

    expect(await say(admin, "DHL 00340434")).toBe(
      `To ship order ${id} with this note, reply to my message that asks for it, or send /ship ${id} NOTE. Nothing was changed.`,
    );
    expect(await statusOf(id)).toBe("PAID");
    const hinted = botMessages();
    await (await admin.send("Sure", { in: group })).handled();
    expect(botMessages()).toBe(hinted);
    expect(await say(admin, "DHL 00340434", prompt.message_id)).toMatch(/is shipped \(@ada_ops\)/);
  });

  it("moves orders with /process, /ship ID note and /deliver, and explains what it cannot do", async () => {
    const { id } = await paidOrder();
    expect(await say(admin, `/process ${id.toLowerCase()}`)).toBe(
      `Order ${id} is being prepared (@ada_ops). The customer has been told.`,
    );
    expect(await say(admin, `/ship ${id} SF Express SF1234567`)).toBe(
      `Order ${id} is shipped (@ada_ops), tracking: SF Express SF1234567. The customer has been told.`,
    );
    expect(await say(owner, `/ship ${id}`)).toMatch(
      new RegExp(`^Already done: order ${id} is shipped since .+, by @ada_ops\\.`),
    );
    expect(await say(admin, `/deliver ${id}`)).toMatch(/is delivered/);
    expect(await say(admin, "/ship")).toBe("Usage: /ship ORDER_ID [tracking note]");
    expect(await say(admin, "/deliver ZZZZZZZZ")).toBe(await say(admin, "/order ZZZZZZZZ"));
    expect(await say(admin, `/ship ${id} ${"x".repeat(501)}`)).toBe(
      "A tracking note can be at most 500 characters. Nothing was changed.",
    );
    // Not for members.
    expect(await say(member, `/deliver ${id}`)).toBe(
      "Only this group's administrators can do that.",
    );

    const reserved = await h.shop.orders.placeOrder({
      userId: 7_300_000_099,
      chatId: 7_300_000_099,
      items: [
        {
          sku: (await h.db.product.findFirstOrThrow({ where: { stock: { gt: 5 } } })).sku,
          quantity: 1,
        },
      ],
      idempotencyKey: "fulfilment-unpaid",
    });
    if (reserved.status !== "ok") throw new Error("not placed");
    expect(await say(admin, `/ship ${reserved.order.id}`)).toBe(
      `Order ${reserved.order.id} is awaiting payment: only a paid order can be moved on.`,
    );
  });

  it("refunds a shipped order only with a reason, and keeps it shipped", async () => {
    const { id } = await paidOrder();
    await say(admin, `/ship ${id}`);
    expect(await say(owner, `/refund ${id}`)).toBe(
      `Order ${id} is shipped: the goods went out, so a refund needs a reason, which is kept in the order's history. Send /refund ${id} REASON. Nothing was changed.`,
    );
    expect(await say(owner, `/refund ${id} parcel lost in transit`)).toBe(
      `Order ${id} stays shipped; its payment is being returned to the customer. Reason recorded: parcel lost in transit`,
    );
    expect(await statusOf(id)).toBe("SHIPPED");
    const payment = await h.db.payment.findFirstOrThrow({ where: { order: { publicId: id } } });
    expect(payment.status).toBe("REFUND_PENDING");
    const detail = await say(admin, `/order ${id}`);
    expect(detail).toContain("History:");
    expect(detail).toMatch(/· refunded \(parcel lost in transit\)/);
  });
});

describe("the paid alert's buttons", () => {
  it("carry data the bot's fulfil codec reads back, for every step (the worker's paid alert carries them)", () => {
    const steps = ["PAID", "PROCESSING", "SHIPPED"] as const;
    const buttons = steps.flatMap((s) => fulfilmentButtons("AB23CD45", s));
    expect(buttons.map((b) => b.step).sort()).toEqual([...FULFILMENT_STEPS, "SHIPPED"].sort());
    for (const b of buttons)
      expect(callbacks.fulfil.decode(b.data)).toEqual({ orderId: "AB23CD45", step: b.step });
  });
});

describe("the customer's view", () => {
  it("shows the order's history, with the tracking note, on the card opened from /orders", async () => {
    const { id, customer } = await paidOrder();
    await say(admin, `/ship ${id} DHL 777`);
    await customer.send("/orders");
    await customer.waitForMessage(/./);
    await customer.press(new RegExp(id));
    const card = await customer.waitForMessage(new RegExp(`History:`));
    expect(card.text).toMatch(/· paid/);
    expect(card.text).toMatch(/· shipped \(DHL 777\)/);
    expect(card.text).not.toContain("ada_ops");
  });
});
