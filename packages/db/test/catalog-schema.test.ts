// The constraints of migration 20261203000000_catalog_and_cart: the database refuses what the
// catalog and the cart must never hold, whoever writes it.
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@orderbot/testkit";
import { teaProduct, unique } from "./support/rows.ts";

const { db } = useTestDatabase();

const USER = 7_123_456_789n;

const category = (data: { slug?: string; parentId?: number; level?: number } = {}) =>
  db.category.create({
    data: {
      slug: data.slug ?? unique("cat"),
      titleEn: "Tea",
      titleZh: "茶",
      ...(data.parentId === undefined ? {} : { parentId: data.parentId }),
      level: data.level ?? (data.parentId === undefined ? 0 : 1),
    },
  });

const product = (categoryId: number | null = null) => teaProduct(db, { categoryId });

describe("categories", () => {
  it("nest one level: a subcategory of a subcategory is refused", async () => {
    const top = await category();
    const sub = await category({ parentId: top.id });
    await expect(category({ parentId: sub.id })).rejects.toThrow();
  });

  it("keep level and parent together", async () => {
    const top = await category();
    await expect(category({ parentId: top.id, level: 0 })).rejects.toThrow();
    await expect(category({ level: 1 })).rejects.toThrow();
  });

  it("a parent cannot become a subcategory, and a category in use cannot be deleted", async () => {
    const top = await category();
    const other = await category();
    await category({ parentId: top.id });
    await expect(
      db.category.update({ where: { id: top.id }, data: { parentId: other.id, level: 1 } }),
    ).rejects.toThrow();
    await expect(db.category.delete({ where: { id: top.id } })).rejects.toThrow();
    await product(other.id);
    await expect(db.category.delete({ where: { id: other.id } })).rejects.toThrow();
  });

  it("refuse a slug operators could not type, and an empty title", async () => {
    await expect(category({ slug: "Green Tea" })).rejects.toThrow();
    await expect(
      db.category.create({ data: { slug: unique("t"), titleEn: " ", titleZh: "茶" } }),
    ).rejects.toThrow();
  });
});

describe("cart items", () => {
  it("hold at least one unit", async () => {
    const p = await product();
    await db.cart.create({ data: { userId: USER } });
    await expect(
      db.cartItem.create({ data: { userId: USER, productId: p.id, quantity: 0 } }),
    ).rejects.toThrow();
    await db.cartItem.create({ data: { userId: USER, productId: p.id, quantity: 1 } });
  });
});

describe("search", () => {
  it("has the trigram index over both titles", async () => {
    const rows = await db.$queryRawUnsafe<{ indexdef: string }[]>(
      `SELECT indexdef FROM pg_indexes WHERE indexname = 'products_title_trgm_idx'`,
    );
    expect(rows[0]?.indexdef).toMatch(/USING gin .*title_en.*title_zh.*gin_trgm_ops/);
  });
});
