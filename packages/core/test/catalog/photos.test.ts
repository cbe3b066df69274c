import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedCatalog } from "@orderbot/db";
import { createLockManager, type LockManager } from "@orderbot/lock";
import {
  createTestDatabase,
  createTestRedis,
  type TestDatabase,
  type TestRedis,
} from "@orderbot/testkit";
import { createShop, LOCK_KINDS, parseProductPhoto, type Shop } from "../../src/index.ts";

let testDb: TestDatabase;
let testRedis: TestRedis;
let locks: LockManager;
let shop: Shop;

beforeAll(async () => {
  testDb = await createTestDatabase();
  testRedis = await createTestRedis();
  await seedCatalog(testDb.db);
  locks = createLockManager({
    redis: testRedis.redis,
    namespace: testRedis.namespace,
    hashKey: "photos-test-key-0123",
    kinds: LOCK_KINDS,
  });
  shop = createShop({ db: testDb.db, locks, config: { maskKey: "photos-test-key-0123" } });
});
afterAll(async () => {
  await locks.close();
  await testRedis.cleanup();
  await testDb.drop();
});

const FILE_ID = "AgACAgIAAxkBAAIBc2Zk_Example-FileId_0123456789";
const sku = async () => (await shop.catalog.all())[0]!.sku;

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
    const before = await shop.catalog.get({ sku: target });
    const set = await shop.photos.set({ sku: target, photo: FILE_ID, actor: 7_000_000_001n });
    expect(set).toMatchObject({ status: "ok", product: { sku: target, photo: FILE_ID } });
    expect((await shop.catalog.get({ sku: target }))?.photo).toBe(FILE_ID);
    expect((await shop.catalog.get({ sku: target }))?.version).toBe(before?.version);
    await shop.photos.set({ sku: target, photo: "https://example.com/b.jpg", actor: 1n });
    expect((await shop.catalog.get({ sku: target }))?.photo).toBe("https://example.com/b.jpg");
    await shop.photos.set({ sku: target, photo: null, actor: 1n });
    expect((await shop.catalog.get({ sku: target }))?.photo).toBeNull();
  });

  it("changes nothing for a bad photo or an unknown product", async () => {
    const target = await sku();
    await shop.photos.set({ sku: target, photo: FILE_ID, actor: 1n });
    expect(await shop.photos.set({ sku: target, photo: "not a photo", actor: 1n })).toEqual({
      status: "invalid-photo",
    });
    expect(await shop.photos.set({ sku: "NO-SUCH-SKU", photo: FILE_ID, actor: 1n })).toEqual({
      status: "unknown-product",
    });
    expect((await shop.catalog.get({ sku: target }))?.photo).toBe(FILE_ID);
  });
});

describe("the products_photo_check constraint", () => {
  it("refuses a photo that is neither a URL nor a file_id, whoever writes it", async () => {
    const target = await sku();
    for (const bad of ["tea.jpg", "ftp://example.com/a.jpg", "https://a b", "x".repeat(19)]) {
      await expect(
        testDb.db.$executeRaw`UPDATE products SET photo = ${bad} WHERE sku = ${target}`,
      ).rejects.toThrow(/products_photo_check/);
    }
    await expect(
      testDb.db
        .$executeRaw`UPDATE products SET photo = ${`https://e.com/${"a".repeat(2040)}`} WHERE sku = ${target}`,
    ).rejects.toThrow(/products_photo_check/);
    expect(
      await testDb.db
        .$executeRaw`UPDATE products SET photo = ${"https://e.com/a.jpg"} WHERE sku = ${target}`,
    ).toBe(1);
  });
});
