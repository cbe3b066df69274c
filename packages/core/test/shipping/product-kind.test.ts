// /kind: a product becomes physical (priced in the provider's currency) or digital (Stars); a
// change of currency needs the new price, and the price ledger records a change of amount.
import { describe, expect, it } from "vitest";
import { addProduct, user } from "../support/fixtures.ts";
import { useShopHarness } from "../support/shop.ts";
import { ownerActor } from "../../src/rights/index.ts";

const h = useShopHarness();

describe("setProductKind", () => {
  it("asks for a price in the new currency, then changes kind, currency and price together", async () => {
    const p = await addProduct(h.db, { stock: 5, priceMinor: 40 });
    const set = (extra: object) =>
      h.shop.shipping.setProductKind({
        sku: p.sku,
        kind: "PHYSICAL",
        currency: "USD",
        actor: ownerActor(user(1)),
        ...extra,
      });
    expect(await set({})).toEqual({ status: "price-required", sku: p.sku, priceCurrency: "XTR" });
    expect(await h.db.product.findUnique({ where: { id: p.id } })).toMatchObject({
      kind: "DIGITAL",
      currency: "XTR",
      priceMinor: 40,
    });
    expect(await set({ priceMinor: 1_250 })).toMatchObject({
      status: "ok",
      kind: "PHYSICAL",
      currency: "USD",
      priceMinor: 1_250,
    });
    expect(await h.db.product.findUnique({ where: { id: p.id } })).toMatchObject({
      kind: "PHYSICAL",
      currency: "USD",
      priceMinor: 1_250,
    });
    expect(await h.db.priceChange.findMany({ where: { productId: p.id } })).toMatchObject([
      { oldPriceMinor: 40, newPriceMinor: 1_250, currency: "USD" },
    ]);
  });

  it("refuses a change from a stale version with the product as it is now", async () => {
    const p = await addProduct(h.db, { stock: 5, priceMinor: 40 });
    const seen = p.version;
    await h.shop.stock.setPrice({ sku: p.sku, priceMinor: 45, actor: ownerActor(user(1)) });
    const kind = { sku: p.sku, kind: "PHYSICAL", currency: "USD", priceMinor: 1_250 } as const;
    expect(
      await h.shop.shipping.setProductKind({
        ...kind,
        actor: ownerActor(user(1)),
        expectedVersion: seen,
      }),
    ).toEqual({
      status: "conflict",
      product: expect.objectContaining({ currency: "XTR", priceMinor: 45, version: seen + 1 }),
    });
    expect(await h.db.product.findUnique({ where: { id: p.id } })).toMatchObject({
      kind: "DIGITAL",
      priceMinor: 45,
    });
    expect(
      await h.shop.shipping.setProductKind({
        ...kind,
        actor: ownerActor(user(1)),
        expectedVersion: seen + 1,
      }),
    ).toMatchObject({ status: "ok", kind: "PHYSICAL" });
  });

  it("refuses a kind in the wrong currency, and an unknown product", async () => {
    const p = await addProduct(h.db, { stock: 5 });
    expect(
      await h.shop.shipping.setProductKind({
        sku: p.sku,
        kind: "DIGITAL",
        currency: "USD",
        actor: ownerActor(user(1)),
      }),
    ).toMatchObject({ status: "invalid" });
    expect(
      await h.shop.shipping.setProductKind({
        sku: "NOPE-1",
        kind: "DIGITAL",
        currency: "XTR",
        actor: ownerActor(user(1)),
      }),
    ).toEqual({ status: "not-found" });
    expect((await h.db.product.findUnique({ where: { id: p.id } }))!.kind).toBe("DIGITAL");
  });
});
