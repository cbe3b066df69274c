import { describe, expect, it } from "vitest";
import { DELETABLE_FOR_MS, INVOICE_CLAIM_MS } from "../../src/customers/index.ts";
import { addProduct, placed, user } from "../support/fixtures.ts";
import { useShopHarness } from "../support/shop.ts";

const h = useShopHarness({ config: { maxOpenOrders: 1_000 } });

const RESERVATION = 15 * 60_000;

async function outboxOf(chatId: bigint) {
  return h.db.outboxMessage.findMany({ where: { chatId }, orderBy: { id: "asc" } });
}

describe("an order's invoice", () => {
  it("is claimed by one of many concurrent Pay taps, and again only after the claim window", async () => {
    const p = await addProduct(h.db, { stock: 5 });
    const order = await placed(h.shop, user(1), [{ sku: p.sku, quantity: 1 }]);
    const claims = await Promise.all(
      Array.from({ length: 12 }, (_, i) => h.shop.orderMessages.claimInvoice(order.id, `tap-${i}`)),
    );
    expect(claims.filter((c) => c.status === "send")).toEqual([{ status: "send", replaces: null }]);
    expect(claims.filter((c) => c.status === "already-sent")).toHaveLength(11);
    await h.shop.orderMessages.invoiceSent(order.id, 41);

    h.clock.advance(INVOICE_CLAIM_MS + 1);
    // A later Pay (the customer deleted the invoice, say): a new one replaces the old one.
    expect(await h.shop.orderMessages.claimInvoice(order.id, "later")).toEqual({
      status: "send",
      replaces: 41,
    });
    expect(await h.shop.orderMessages.claimInvoice("ZZZZZZZZ", "tap")).toEqual({
      status: "not-found",
    });
  });

  it("is claimed again by the same press delivered again before the invoice went out", async () => {
    const p = await addProduct(h.db, { stock: 5 });
    const order = await placed(h.shop, user(40), [{ sku: p.sku, quantity: 1 }]);
    expect((await h.shop.orderMessages.claimInvoice(order.id, "press-1")).status).toBe("send");
    // The bot died between the claim and the send: another tap still waits, the same press's
    // re-delivery sends the invoice.
    expect((await h.shop.orderMessages.claimInvoice(order.id, "press-2")).status).toBe(
      "already-sent",
    );
    expect(await h.shop.orderMessages.claimInvoice(order.id, "press-1")).toEqual({
      status: "send",
      replaces: null,
    });
    // Once it went out, even the same press is a double tap.
    await h.shop.orderMessages.invoiceSent(order.id, 51);
    expect((await h.shop.orderMessages.claimInvoice(order.id, "press-1")).status).toBe(
      "already-sent",
    );
  });

  it("a failed send releases the claim, so the next tap tries again at once", async () => {
    const p = await addProduct(h.db, { stock: 5 });
    const order = await placed(h.shop, user(2), [{ sku: p.sku, quantity: 1 }]);
    expect((await h.shop.orderMessages.claimInvoice(order.id, "tap")).status).toBe("send");
    await h.shop.orderMessages.releaseInvoice(order.id);
    expect((await h.shop.orderMessages.claimInvoice(order.id, "tap")).status).toBe("send");
  });
});

describe("when an order can no longer be paid", () => {
  it("on expiry, its card is edited and its invoice deleted", async () => {
    const customer = user(3);
    const p = await addProduct(h.db, { stock: 5 });
    const order = await placed(h.shop, customer, [{ sku: p.sku, quantity: 1 }]);
    await h.shop.orderMessages.setCard(order.id, customer, 10);
    await h.shop.orderMessages.claimInvoice(order.id, "tap");
    await h.shop.orderMessages.invoiceSent(order.id, 11);
    h.clock.advance(RESERVATION + 1);
    await h.shop.orders.expireDue(h.clock.now());

    const rows = await outboxOf(customer);
    expect(rows.map((r) => [r.method, r.payload])).toEqual(
      expect.arrayContaining([
        [
          "notify",
          {
            template: "order-card",
            params: { orderId: order.id, status: "EXPIRED" },
            edit: { message_id: 10 },
          },
        ],
        ["deleteMessage", { message_id: 11 }],
      ]),
    );
    expect(
      (await h.db.order.findUniqueOrThrow({ where: { publicId: order.id } })).invoiceMessageId,
    ).toBeNull();
  });

  it("on cancel, its invoice is deleted; one older than Telegram's 48 hours is left alone", async () => {
    const customer = user(4);
    const p = await addProduct(h.db, { stock: 5 });
    const fresh = await placed(h.shop, customer, [{ sku: p.sku, quantity: 1 }]);
    await h.shop.orderMessages.claimInvoice(fresh.id, "tap");
    await h.shop.orderMessages.invoiceSent(fresh.id, 21);
    expect((await h.shop.orders.cancelOrder(fresh.id, customer)).status).toBe("ok");

    const stale = await placed(h.shop, customer, [{ sku: p.sku, quantity: 1 }]);
    await h.shop.orderMessages.claimInvoice(stale.id, "tap");
    await h.shop.orderMessages.invoiceSent(stale.id, 22);
    await h.db.order.update({
      where: { publicId: stale.id },
      data: { invoiceSentAt: new Date(h.clock.now().getTime() - DELETABLE_FOR_MS - 60_000) },
    });
    expect((await h.shop.orders.cancelOrder(stale.id, customer)).status).toBe("ok");

    const deletions = (await outboxOf(customer)).filter((r) => r.method === "deleteMessage");
    expect(deletions.map((r) => r.payload)).toEqual([{ message_id: 21 }]);
  });
});
