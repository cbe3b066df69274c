// A product's titles and sale status, edited from the version the operator saw.
import { describe, expect, it } from "vitest";
import { addProduct, user } from "../support/fixtures.ts";
import { useShopHarness } from "../support/shop.ts";
import { ownerActor } from "../../src/rights/index.ts";

const h = useShopHarness();
const actor = ownerActor(user(1));

describe("editProduct", () => {
  it("changes titles and sale status, bumping the version", async () => {
    const p = await addProduct(h.db, { stock: 5 });
    const title = { en: "Green tea", zh: "绿茶" };
    expect(
      await h.shop.products.edit({ sku: p.sku, actor, expectedVersion: p.version, title }),
    ).toMatchObject({ status: "ok", product: { title, active: true, version: p.version + 1 } });
    expect(await h.shop.products.edit({ sku: p.sku, actor, onSale: false })).toMatchObject({
      status: "ok",
      product: { title, active: false, version: p.version + 2 },
    });
  });

  it("refuses an edit from a stale version with the product as it is now", async () => {
    const p = await addProduct(h.db, { stock: 5 });
    const seen = p.version;
    await h.shop.products.edit({ sku: p.sku, actor, expectedVersion: seen, onSale: false });
    const stale = { sku: p.sku, actor, expectedVersion: seen };
    for (const edit of [{ onSale: true }, { title: { en: "Late", zh: "迟" } }])
      expect(await h.shop.products.edit({ ...stale, ...edit })).toEqual({
        status: "conflict",
        product: expect.objectContaining({ active: false, version: seen + 1 }),
      });
    expect(await h.db.product.findUniqueOrThrow({ where: { id: p.id } })).toMatchObject({
      active: false,
      titleEn: p.titleEn,
      version: seen + 1,
    });
  });

  it("refuses an empty title, an unknown product and a member who is not an admin", async () => {
    const p = await addProduct(h.db, { stock: 5 });
    expect(await h.shop.products.edit({ sku: p.sku, actor, title: { en: " ", zh: "茶" } })).toEqual(
      {
        status: "invalid",
        problems: [{ field: "title.en", rule: "min-length", bound: 1 }],
      },
    );
    expect(await h.shop.products.edit({ sku: "NO-SUCH", actor, onSale: false })).toEqual({
      status: "not-found",
    });
    const member = { id: user(2), member: { role: "none", rights: [] } } as const;
    expect(await h.shop.products.edit({ sku: p.sku, actor: member, onSale: false })).toMatchObject({
      status: "forbidden",
    });
  });
});
