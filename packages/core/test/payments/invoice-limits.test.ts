// What one invoice may ask: the table the shop refuses prices and order totals against, and the
// services that use it (a refusal changes nothing).
import { describe, expect, it } from "vitest";
import { checkInvoiceAmount } from "../../src/payments/index.ts";
import { addProduct, stockOf, user } from "../support/fixtures.ts";
import { useShopHarness } from "../support/shop.ts";
import { ownerActor } from "../../src/rights/index.ts";

const h = useShopHarness();

describe("checkInvoiceAmount", () => {
  it("takes 1-10000 Stars and US$1.00-10,000.00", () => {
    for (const [amount, currency] of [
      [1, "XTR"],
      [10_000, "XTR"],
      [100, "USD"],
      [1_000_000, "USD"],
    ] as const)
      expect(checkInvoiceAmount(amount, currency)).toEqual({ status: "ok" });
    expect(checkInvoiceAmount(10_001, "XTR")).toEqual({
      status: "amount-out-of-range",
      currency: "XTR",
      amountMinor: 10_001,
      minMinor: 1,
      maxMinor: 10_000,
    });
    expect(checkInvoiceAmount(99, "USD")).toMatchObject({ status: "amount-out-of-range" });
    expect(checkInvoiceAmount(1_000_001, "USD")).toMatchObject({ status: "amount-out-of-range" });
  });

  it("refuses a currency whose bounds it does not know, naming the ones it does", () => {
    expect(checkInvoiceAmount(500, "EUR")).toEqual({
      status: "unsupported-currency",
      currency: "EUR",
      supported: ["XTR", "USD"],
    });
  });
});

describe("setPrice and placeOrder", () => {
  it("refuse a unit price above one invoice's maximum, and change nothing", async () => {
    const product = await addProduct(h.db, { stock: 5, priceMinor: 40 });
    const result = await h.shop.stock.setPrice({
      sku: product.sku,
      priceMinor: 10_001,
      actor: ownerActor(user(1)),
    });
    expect(result).toMatchObject({ status: "amount-out-of-range", maxMinor: 10_000 });
    const after = await h.db.product.findUniqueOrThrow({ where: { id: product.id } });
    expect(after).toMatchObject({ priceMinor: 40, version: product.version });
    expect(await h.db.priceChange.count({ where: { productId: product.id } })).toBe(0);
  });

  it("refuse an order whose total one invoice cannot ask, and reserve nothing", async () => {
    const product = await addProduct(h.db, { stock: 5, priceMinor: 4_000 });
    const result = await h.shop.orders.placeOrder({
      userId: user(2),
      chatId: user(2),
      items: [{ sku: product.sku, quantity: 3 }],
      idempotencyKey: "too-much",
    });
    expect(result).toEqual({
      status: "amount-out-of-range",
      currency: "XTR",
      amountMinor: 12_000,
      minMinor: 1,
      maxMinor: 10_000,
    });
    expect(await stockOf(h.db, product.sku)).toBe(5);
    expect(await h.db.order.count({ where: { userId: user(2) } })).toBe(0);
    // Two units fit.
    const fits = await h.shop.orders.placeOrder({
      userId: user(2),
      chatId: user(2),
      items: [{ sku: product.sku, quantity: 2 }],
      idempotencyKey: "fits",
    });
    expect(fits.status).toBe("ok");
  });
});
