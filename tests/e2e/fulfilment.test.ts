// Fulfilment end to end over two bot replicas behind one webhook URL: a customer fills a cart of
// three products from the catalog and pays, an operator ships from the paid alert in the group with a tracking note by reply, the customer is
// told "shipped" with the note (by the worker's outbox relay), then "delivered"; and two operators
// shipping one order at once make one move, the other told who shipped it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SimulatedGroup, SimulatedUser } from "@orderbot/fake-telegram";
import { buyCartOfThree } from "./support/journey.ts";
import { OWNER_ID, startShop, type E2eShop } from "./support/shop.ts";

let shop: E2eShop;
let group: SimulatedGroup;
let admin: SimulatedUser;
let admin2: SimulatedUser;
let seq = 0;

beforeAll(async () => {
  shop = await startShop({ replicas: 2 });
  const owner = shop.kit.createUser({ id: OWNER_ID, languageCode: "en" });
  admin = shop.kit.createUser({ firstName: "Ada", username: "ada_ops", languageCode: "en" });
  admin2 = shop.kit.createUser({ firstName: "Bo", username: "bo_ops", languageCode: "en" });
  group = shop.kit.createGroup({ title: "Operators", creator: owner, admins: [admin, admin2] });
  await owner.send("/bind", { in: group });
  await group.waitForMessage("operator group", { timeoutMs: 10_000 });
});
afterAll(() => shop?.stop());

/**
 * A customer's paid order: reserved through core (the catalog's own journeys are tested
 * elsewhere), then opened from /orders and paid with Telegram's invoice, as a customer does.
 */
async function paidOrder(customer: SimulatedUser): Promise<string> {
  const placed = await shop.shop.orders.placeOrder({
    userId: customer.id,
    chatId: customer.id,
    items: [{ sku: "CUP-CELADON", quantity: 1 }],
    idempotencyKey: `e2e-fulfilment-${++seq}`,
  });
  if (placed.status !== "ok") throw new Error(`not placed: ${placed.status}`);
  const id = placed.order.id;
  await customer.send("/orders");
  await customer.waitForMessage(/./, { timeoutMs: 10_000 });
  await customer.press(new RegExp(id));
  await customer.waitForMessage(new RegExp(`Order ${id}`), { timeoutMs: 10_000 });
  await customer.press(/^Pay/);
  await customer.waitForMessage((m) => m.invoice !== undefined, { timeoutMs: 10_000 });
  const payment = await customer.pay();
  expect(payment.status).toBe("paid");
  await customer.waitForMessage(`Payment received: order ${id} is paid.`, { timeoutMs: 10_000 });
  return id;
}

const statusOf = async (id: string) =>
  (await shop.db.order.findUniqueOrThrow({ where: { publicId: id } })).status;

describe("fulfilment", () => {
  it("category → product → a cart of 3 → pay → shipped from the group with a tracking note → the customer is told → delivered", async () => {
    const customer = shop.kit.createUser({ firstName: "Dana", languageCode: "en" });
    const { id } = await buyCartOfThree(customer);
    const lines = await shop.db.orderItem.count({ where: { order: { publicId: id } } });
    expect(lines).toBe(3);

    await shop.relayOutbox();
    const alert = await group.waitForMessage(new RegExp(`Order ${id} was paid`), {
      timeoutMs: 10_000,
    });
    const labels = alert.reply_markup?.inline_keyboard.flat().map((b) => b.text);
    expect(labels).toEqual(["📦 Start preparing", "🚚 Mark shipped"]);

    await admin.press("🚚 Mark shipped", { in: group, messageId: alert.message_id });
    const prompt = await group.waitForMessage(/tracking note/, { timeoutMs: 10_000 });
    await admin.send("DHL 00340434", { in: group, replyTo: prompt.message_id });
    await group.waitForMessage(
      `Order ${id} is shipped (@ada_ops), tracking: DHL 00340434. The customer has been told.`,
      { timeoutMs: 10_000 },
    );
    expect(await statusOf(id)).toBe("SHIPPED");

    await shop.relayOutbox();
    await customer.waitForMessage(
      `Your order ${id} has shipped.\nTracking: DHL 00340434\nWe will tell you when it is delivered.`,
      { timeoutMs: 10_000 },
    );

    await admin.press("✅ Mark delivered", { in: group });
    await group.waitForMessage(`Order ${id} is delivered (@ada_ops). The customer has been told.`, {
      timeoutMs: 10_000,
    });
    await shop.relayOutbox();
    await customer.waitForMessage(
      `Your order ${id} is delivered. Thank you for shopping with us!`,
      {
        timeoutMs: 10_000,
      },
    );
    expect(await statusOf(id)).toBe("DELIVERED");

    // A second run of the relay sends nothing new: one notice per order and state.
    await shop.relayOutbox();
    const told = customer.view().botMessages.filter((m) => m.text?.startsWith(`Your order ${id}`));
    expect(told).toHaveLength(2);
  });

  it("two operators shipping one order at once: one move, one notice, the other told who and when", async () => {
    const customer = shop.kit.createUser({ firstName: "Eli", languageCode: "en" });
    const id = await paidOrder(customer);
    await Promise.all([
      admin.send(`/ship ${id} UPS 1Z999`, { in: group }),
      admin2.send(`/ship ${id} FedEx 7777`, { in: group }),
    ]);
    // Both answers arrive (in either order): one move made, one told it was already made.
    await group.waitForMessage(new RegExp(`^Order ${id} is shipped`), { timeoutMs: 10_000 });
    await group.waitForMessage(new RegExp(`^Already done: order ${id}`), { timeoutMs: 10_000 });
    const answers = group
      .view()
      .botMessages.map((m) => m.text ?? "")
      .filter((t) => t.includes(id));
    const won = answers.filter((t) => t.startsWith(`Order ${id} is shipped`));
    const lost = answers.filter((t) => t.startsWith("Already done"));
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    const winner = won[0]!.includes("@ada_ops") ? "@ada_ops" : "@bo_ops";
    expect(lost[0]).toMatch(
      new RegExp(
        `^Already done: order ${id} is shipped since .+, by ${winner}\\. Nothing was changed\\.$`,
      ),
    );

    const timeline = await shop.db.orderTimelineEntry.findMany({
      where: { order: { publicId: id }, toStatus: "SHIPPED" },
    });
    expect(timeline).toHaveLength(1);
    expect(await shop.db.event.count({ where: { deliveryKey: `status:${id}:SHIPPED` } })).toBe(1);
    await shop.relayOutbox();
    const note = winner === "@ada_ops" ? "UPS 1Z999" : "FedEx 7777";
    await customer.waitForMessage(new RegExp(`Tracking: ${note}`), { timeoutMs: 10_000 });
  });
});
