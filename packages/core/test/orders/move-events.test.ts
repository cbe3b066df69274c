// What an order's move tells its customer's chat, queued in the move's transaction: events that
// name the order, never the messages that show it (the conversation finds those when it sends).
import { describe, expect, it } from "vitest";
import { deliveries } from "../support/deliveries.ts";
import { addProduct, paymentFor, placed, user } from "../support/fixtures.ts";
import { useShopHarness } from "../support/shop.ts";

const h = useShopHarness({ config: { maxOpenOrders: 1_000 } });

const RESERVATION = 15 * 60_000;

/**
 * The order shown by a card and a live invoice, as the conversation records them. Until a later
 * release contracts, the database stores each event in the shape the previous release's relay
 * sends too (migration 20261207030000_order_message_columns): the messages named.
 */
async function shown(orderId: string) {
  await h.db.$executeRaw`
    INSERT INTO order_messages (order_public_id, card_message_id, invoice_message_id, invoice_sent_at)
    VALUES (${orderId}, 41, 42, timezone('UTC', now()))`;
}

/** The chat's deliveries (events expanded), then its outbox rows. */
async function eventsOf(chatId: bigint) {
  const told = (await deliveries(h.db, "")).filter((d) => d.chatId === chatId);
  const rows = await h.db.outboxMessage.findMany({ where: { chatId }, orderBy: { id: "asc" } });
  return [
    ...told.map((d) => [d.dedupeKey, "event", d.payload]),
    ...rows.map((r) => [r.dedupeKey, r.method, r.payload]),
  ];
}

describe("an order's move", () => {
  it("to EXPIRED asks for its card to show it and its invoice to go, once", async () => {
    const customer = user(3);
    const p = await addProduct(h.db, { stock: 5 });
    const order = await placed(h.shop, customer, [{ sku: p.sku, quantity: 1 }]);
    await shown(order.id);
    h.clock.advance(RESERVATION + 1);
    await h.shop.orders.expireDue(h.clock.now());
    await h.shop.orders.expireDue(h.clock.now());

    expect(await eventsOf(customer)).toEqual([
      [`expired:${order.id}:${customer}`, "event", { kind: "order.expired", orderId: order.id }],
      [
        `card:${order.id}:EXPIRED`,
        "notify",
        {
          template: "order-card",
          params: { orderId: order.id, status: "EXPIRED" },
          edit: { message_id: 41 },
        },
      ],
      [`invoice-void:${order.id}:EXPIRED`, "deleteMessage", { message_id: 42 }],
    ]);
  });

  it("to CANCELLED voids its invoice; the bot shows the card itself, where the customer is", async () => {
    const customer = user(4);
    const p = await addProduct(h.db, { stock: 5 });
    const order = await placed(h.shop, customer, [{ sku: p.sku, quantity: 1 }]);
    await shown(order.id);
    expect((await h.shop.orders.cancelOrder(order.id, customer)).status).toBe("ok");
    expect(await eventsOf(customer)).toEqual([
      [`invoice-void:${order.id}:CANCELLED`, "deleteMessage", { message_id: 42 }],
    ]);
  });

  it("with no card and no live invoice, asks for nothing either relay would send", async () => {
    const customer = user(6);
    const p = await addProduct(h.db, { stock: 5 });
    const order = await placed(h.shop, customer, [{ sku: p.sku, quantity: 1 }]);
    h.clock.advance(RESERVATION + 1);
    await h.shop.orders.expireDue(h.clock.now());
    const keys = (await eventsOf(customer)).map(([key]) => key);
    expect(keys).toEqual([`expired:${order.id}:${customer}`]);
  });

  it("to PAID asks for nothing of the kind", async () => {
    const customer = user(5);
    const p = await addProduct(h.db, { stock: 5 });
    const order = await placed(h.shop, customer, [{ sku: p.sku, quantity: 1 }]);
    expect((await h.shop.payments.confirmPayment(paymentFor(order))).status).toBe("ok");
    // Only the payer's "payment received" (an event, due after the bot's grace): no card, no void.
    expect(await h.db.outboxMessage.count({ where: { chatId: customer } })).toBe(0);
    const told = await h.db.event.findMany({
      where: { payload: { path: ["orderId"], equals: order.id } },
    });
    expect(told.map((e) => e.kind).sort()).toEqual(["order.paid", "payment.received"]);
  });
});
