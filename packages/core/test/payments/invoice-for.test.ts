// invoiceFor: whether an order may be paid now and what its invoice asks, as every way in gets it.
// Each refusal is answered with nothing to send; another customer's order is a missing one.
import { describe, expect, it } from "vitest";
import { invoiceFor, type InvoiceSettings } from "../../src/payments/index.ts";
import { addProduct, paymentFor, placed, user } from "../support/fixtures.ts";
import { useShopHarness } from "../support/shop.ts";

const h = useShopHarness();

const asks = { name: true, phone: false, email: true };
const sold: InvoiceSettings = { provider: { currency: "USD" }, asks, paymentGraceMs: 60_000 };
const notSold: InvoiceSettings = { ...sold, provider: null };

async function starsOrder(n: number) {
  const p = await addProduct(h.db, { stock: 5, priceMinor: 40 });
  return placed(h.shop, user(n), [{ sku: p.sku, quantity: 2 }]);
}

async function physicalOrder(n: number, currency = "USD") {
  const p = await addProduct(h.db, { stock: 5, priceMinor: 1_250, currency });
  await h.db.product.update({ where: { id: p.id }, data: { kind: "PHYSICAL" } });
  return placed(h.shop, user(n), [{ sku: p.sku, quantity: 1 }]);
}

/** The invoice as the order's owner would ask for it now, read owner-scoped. */
async function invoice(orderId: string, n: number, settings: InvoiceSettings = sold) {
  const order = await h.shop.orders.getOwn(orderId, user(n));
  return invoiceFor(order, { userId: user(n) }, { settings, now: h.clock.now() });
}

describe("invoiceFor", () => {
  it("gives a Stars order's terms as data: one price, the title and description's parts", async () => {
    const order = await starsOrder(1);
    const result = await invoice(order.id, 1);
    expect(result).toMatchObject({ status: "ok", order: { id: order.id } });
    if (result.status !== "ok") return;
    expect(result.terms).toEqual({
      orderId: order.id,
      currency: "XTR",
      amountMinor: 80,
      payVia: "stars",
      title: { orderId: order.id },
      description: { promo: null, items: order.items, currency: "XTR" },
      asks: null,
    });
  });

  it("asks a physical order's address and what the shop configured, through the provider", async () => {
    const order = await physicalOrder(2);
    const result = await invoice(order.id, 2);
    expect(result.status === "ok" && result.terms).toMatchObject({
      payVia: "provider",
      currency: "USD",
      amountMinor: 1_250,
      asks: { name: true, phone: false, email: true, shippingAddress: true },
    });
  });

  it("refuses another customer's order exactly as a missing one", async () => {
    const order = await starsOrder(3);
    const missing = await invoice("ZZZZZZZZ", 3);
    expect(missing).toEqual({ status: "not-found" });
    expect(await invoice(order.id, 4)).toEqual(missing);
    // Read without the owner's scope, it is still refused alike.
    const read = await h.shop.orders.get(order.id);
    expect(invoiceFor(read, { userId: user(4) }, { settings: sold, now: h.clock.now() })).toEqual(
      missing,
    );
  });

  it("refuses a cancelled, an expired, a due and a paid order, with the order as it is", async () => {
    const cancelled = await starsOrder(5);
    await h.shop.orders.cancelOrder(cancelled.id, user(5));
    const paid = await starsOrder(5);
    await h.shop.payments.confirmPayment(paymentFor(paid));
    const due = await starsOrder(6);
    h.clock.advance(h.shop.deps.config.reservationTtlMs);
    const expired = await starsOrder(7);
    await h.db.order.update({ where: { publicId: expired.id }, data: { status: "EXPIRED" } });

    expect(await invoice(cancelled.id, 5)).toMatchObject({
      status: "refused",
      reason: "cancelled",
      order: { id: cancelled.id, status: "CANCELLED" },
    });
    expect(await invoice(paid.id, 5)).toMatchObject({ status: "refused", reason: "already-paid" });
    expect(await invoice(due.id, 6)).toMatchObject({ status: "refused", reason: "expired" });
    expect(await invoice(expired.id, 7)).toMatchObject({ status: "refused", reason: "expired" });
  });

  it("offers a paying order's invoice for as long as pre-checkout would take its payment", async () => {
    const paying = await starsOrder(11);
    const now = h.clock.now();
    await h.db.order.update({
      where: { publicId: paying.id },
      data: { status: "PAYING", expiresAt: now },
    });
    expect(await invoice(paying.id, 11)).toMatchObject({ status: "ok" });
    h.clock.advance(sold.paymentGraceMs);
    expect(await invoice(paying.id, 11)).toMatchObject({ status: "refused", reason: "expired" });
  });

  it("refuses physical goods without a provider, and an order in another currency", async () => {
    const physical = await physicalOrder(8);
    expect(await invoice(physical.id, 8, notSold)).toMatchObject({
      status: "not-sold",
      reason: "physical-unavailable",
    });
    const stars = await physicalOrder(9, "XTR");
    expect(await invoice(stars.id, 9)).toMatchObject({
      status: "not-sold",
      reason: "wrong-currency",
    });
    const digitalUsd = await addProduct(h.db, { stock: 5, priceMinor: 500, currency: "USD" });
    const usd = await placed(h.shop, user(10), [{ sku: digitalUsd.sku, quantity: 1 }]);
    expect(await invoice(usd.id, 10)).toMatchObject({
      status: "not-sold",
      reason: "wrong-currency",
    });
  });
});
