import { beforeAll, describe, expect, it } from "vitest";
import { seedCatalog } from "@orderbot/db";
import { parseProductPhoto } from "../../src/catalog/index.ts";
import { useShopHarness } from "../support/shop.ts";

const h = useShopHarness();
beforeAll(async () => {
  await seedCatalog(h.db);
});

const FILE_ID = "AgACAgIAAxkBAAIBc2Zk_Example-FileId_0123456789";
const sku = async () => (await h.shop.catalog.all())[0]!.sku;

describe("parseProductPhoto", () => {
  it("takes HTTP(S) URLs and Telegram file_ids", () => {
    expect(parseProductPhoto(" https://example.com/tea.jpg ")).toBe("https://example.com/tea.jpg");
    expect(parseProductPhoto("HTTP://Example.com/a.png?x=1")).toBe("http://example.com/a.png?x=1");
    expect(parseProductPhoto(FILE_ID)).toBe(FILE_ID);
  });

  it("refuses anything else", () => {
    for (const bad of [
      "",
      "tea.jpg",
      "ftp://example.com/a.jpg",
      "javascript:alert(1)",
      "https://",
      "https://exa mple.com/a.jpg",
      "https://user:secret@example.com/a.jpg",
      `https://example.com/${"a".repeat(2048)}`,
      "short_id",
      "file id with spaces in it",
    ]) {
      expect(parseProductPhoto(bad), bad).toBeNull();
    }
  });
});

describe("shop.photos.set", () => {
  it("sets, replaces and removes a product's photo; the card's view carries it", async () => {
    const target = await sku();
    const before = await h.shop.catalog.get({ sku: target });
    const set = await h.shop.photos.set({ sku: target, photo: FILE_ID, actor: 7_000_000_001n });
    expect(set).toMatchObject({ status: "ok", product: { sku: target, photo: FILE_ID } });
    expect((await h.shop.catalog.get({ sku: target }))?.photo).toBe(FILE_ID);
    expect((await h.shop.catalog.get({ sku: target }))?.version).toBe(before!.version + 1);
    await h.shop.photos.set({ sku: target, photo: "https://example.com/b.jpg", actor: 1n });
    expect((await h.shop.catalog.get({ sku: target }))?.photo).toBe("https://example.com/b.jpg");
    await h.shop.photos.set({ sku: target, photo: null, actor: 1n });
    expect((await h.shop.catalog.get({ sku: target }))?.photo).toBeNull();
  });

  it("refuses a change from a stale version with the product as it is now", async () => {
    const target = await sku();
    const seen = (await h.shop.catalog.get({ sku: target }))!.version;
    await h.shop.photos.set({ sku: target, photo: FILE_ID, actor: 1n });
    const stale = { sku: target, photo: null, actor: 1n, expectedVersion: seen };
    expect(await h.shop.photos.set(stale)).toEqual({
      status: "conflict",
      product: expect.objectContaining({ photo: FILE_ID, version: seen + 1 }),
    });
    expect((await h.shop.catalog.get({ sku: target }))?.photo).toBe(FILE_ID);
    const current = { ...stale, expectedVersion: seen + 1 };
    expect(await h.shop.photos.set(current)).toMatchObject({
      status: "ok",
      product: { photo: null },
    });
  });

  it("changes nothing for a bad photo or an unknown product", async () => {
    const target = await sku();
    await h.shop.photos.set({ sku: target, photo: FILE_ID, actor: 1n });
    expect(await h.shop.photos.set({ sku: target, photo: "not a photo", actor: 1n })).toEqual({
      status: "invalid-photo",
    });
    expect(await h.shop.photos.set({ sku: "NO-SUCH-SKU", photo: FILE_ID, actor: 1n })).toEqual({
      status: "unknown-product",
    });
    expect((await h.shop.catalog.get({ sku: target }))?.photo).toBe(FILE_ID);
  });
});

describe("the products_photo_check constraint", () => {
  it("refuses a photo that is neither a URL nor a file_id, whoever writes it", async () => {
    const target = await sku();
    for (const bad of ["tea.jpg", "ftp://example.com/a.jpg", "https://a b", "x".repeat(19)]) {
      await expect(
        h.db.$executeRaw`UPDATE products SET photo = ${bad} WHERE sku = ${target}`,
      ).rejects.toThrow(/products_photo_check/);
    }
    await expect(
      h.db
        .$executeRaw`UPDATE products SET photo = ${`https://e.com/${"a".repeat(2040)}`} WHERE sku = ${target}`,
    ).rejects.toThrow(/products_photo_check/);
    expect(
      await h.db
        .$executeRaw`UPDATE products SET photo = ${"https://e.com/a.jpg"} WHERE sku = ${target}`,
    ).toBe(1);
  });
});
