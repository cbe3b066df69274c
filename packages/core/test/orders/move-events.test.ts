// What an order's move tells its customer's chat, queued in the move's transaction: events that
// name the order, never the messages that show it (the conversation finds those when it sends).
import { describe, expect, it } from "vitest";
import { addProduct, paymentFor, placed, user } from "../support/fixtures.ts";
import { useShopHarness } from "../support/shop.ts";

const h = useShopHarness({ config: { maxOpenOrders: 1_000 } });

const RESERVATION = 15 * 60_000;

async function eventsOf(chatId: bigint) {
  const rows = await h.db.outboxMessage.findMany({ where: { chatId }, orderBy: { id: "asc" } });
  return rows.map((r) => [r.dedupeKey, r.method, r.payload]);
}

describe("an order's move", () => {
  it("to EXPIRED asks for its card to show it and its invoice to go, once", async () => {
    const customer = user(3);
    const p = await addProduct(h.db, { stock: 5 });
    const order = await placed(h.shop, customer, [{ sku: p.sku, quantity: 1 }]);
    h.clock.advance(RESERVATION + 1);
    await h.shop.orders.expireDue(h.clock.now());
    await h.shop.orders.expireDue(h.clock.now());

    expect(await eventsOf(customer)).toEqual([
      [
        `expired:${order.id}`,
        "notify",
        { template: "order-expired", params: { orderId: order.id } },
      ],
      [
        `card:${order.id}:EXPIRED`,
        "notify",
        { template: "order-card", params: { orderId: order.id, status: "EXPIRED" } },
      ],
      [`invoice-void:${order.id}:EXPIRED`, "voidInvoice", { orderId: order.id }],
    ]);
  });

  it("to CANCELLED voids its invoice; the bot shows the card itself, where the customer is", async () => {
    const customer = user(4);
    const p = await addProduct(h.db, { stock: 5 });
    const order = await placed(h.shop, customer, [{ sku: p.sku, quantity: 1 }]);
    expect((await h.shop.orders.cancelOrder(order.id, customer)).status).toBe("ok");
    expect(await eventsOf(customer)).toEqual([
      [`invoice-void:${order.id}:CANCELLED`, "voidInvoice", { orderId: order.id }],
    ]);
  });

  it("to PAID asks for nothing of the kind", async () => {
    const customer = user(5);
    const p = await addProduct(h.db, { stock: 5 });
    const order = await placed(h.shop, customer, [{ sku: p.sku, quantity: 1 }]);
    expect((await h.shop.payments.confirmPayment(paymentFor(order))).status).toBe("ok");
    const methods = (await eventsOf(customer)).map(([key]) => String(key).split(":")[0]);
    expect(methods).toEqual(["payment-received"]);
  });
});
