import { DEMO_CATALOG, seedCatalog } from "@orderbot/db";
import { beforeAll, describe, expect, it } from "vitest";
import { searchWords } from "../../src/catalog/index.ts";
import { useShopHarness } from "../support/shop.ts";

const h = useShopHarness();
beforeAll(async () => {
  await seedCatalog(h.db);
});

describe("categories", () => {
  it("the seed catalog: five top-level categories, one level of nesting, about 40 products", async () => {
    const top = await h.shop.catalog.categories();
    expect(top.map((c) => c.slug)).toEqual(["tea", "teaware", "sweets", "crafts", "home"]);
    const tea = top.find((c) => c.slug === "tea")!;
    const subs = await h.shop.catalog.categories(tea.id);
    expect(subs.map((c) => c.slug)).toEqual(["green-tea", "dark-tea"]);
    // A parent counts its subcategories' products.
    const own = (await h.shop.catalog.list({ categoryId: tea.id })).total;
    expect(tea.productCount).toBe(own + subs.reduce((n, s) => n + s.productCount, 0));
    expect(top.reduce((n, c) => n + c.productCount, 0)).toBe(DEMO_CATALOG.length);
    expect(DEMO_CATALOG.length).toBeGreaterThanOrEqual(38);
    expect(await h.shop.catalog.uncategorizedCount()).toBe(0);
    // Seeding again changes nothing.
    expect(await seedCatalog(h.db)).toBe(0);
  });

  it("operators add, rename, assign and remove; the database keeps one level and refuses removing a used category", async () => {
    expect(
      await h.shop.categories.create({ slug: "Gifts", titleEn: "Gifts", titleZh: "礼品" }),
    ).toMatchObject({ status: "ok", category: { slug: "gifts", parentId: null } });
    expect(
      await h.shop.categories.create({ slug: "gifts", titleEn: "Again", titleZh: "再次" }),
    ).toEqual({ status: "exists", slug: "gifts" });
    const sub = await h.shop.categories.create({
      slug: "gift-boxes",
      titleEn: "Gift boxes",
      titleZh: "礼盒",
      parent: "gifts",
    });
    expect(sub).toMatchObject({ status: "ok", category: { slug: "gift-boxes" } });
    expect(
      await h.shop.categories.create({
        slug: "too-deep",
        titleEn: "Deep",
        titleZh: "深",
        parent: "gift-boxes",
      }),
    ).toEqual({ status: "too-deep", parent: "gift-boxes" });
    expect(
      await h.shop.categories.create({ slug: "bad slug", titleEn: "x", titleZh: "x" }),
    ).toMatchObject({ status: "invalid" });

    expect(
      await h.shop.categories.assign({ sku: "mooncake-box", slug: "gift-boxes" }),
    ).toMatchObject({
      status: "ok",
      sku: "MOONCAKE-BOX",
      category: { slug: "gift-boxes", productCount: 1 },
    });
    expect(await h.shop.categories.remove("gift-boxes")).toEqual({
      status: "not-empty",
      products: 1,
      subcategories: 0,
    });
    expect(await h.shop.categories.remove("gifts")).toEqual({
      status: "not-empty",
      products: 0,
      subcategories: 1,
    });
    expect(
      await h.shop.categories.rename({ slug: "gifts", titleEn: "Presents", titleZh: "礼物" }),
    ).toMatchObject({ status: "ok", category: { title: { en: "Presents", zh: "礼物" } } });
    await h.shop.categories.assign({ sku: "MOONCAKE-BOX", slug: "sweets" });
    expect(await h.shop.categories.remove("gift-boxes")).toEqual({
      status: "ok",
      slug: "gift-boxes",
    });
    expect(await h.shop.categories.remove("gifts")).toEqual({ status: "ok", slug: "gifts" });
    expect(await h.shop.categories.remove("gifts")).toEqual({
      status: "not-found",
      what: "category",
    });
  });

  it("the database itself refuses a second level and removing a category in use", async () => {
    const green = await h.db.category.findUniqueOrThrow({ where: { slug: "green-tea" } });
    await expect(
      h.db.category.create({
        data: { slug: "deeper", titleEn: "x", titleZh: "x", parentId: green.id, level: 1 },
      }),
    ).rejects.toThrow(/categories_parent_fkey|foreign key/i);
    const tea = await h.db.category.findUniqueOrThrow({ where: { slug: "tea" } });
    // A top-level category with subcategories cannot become a subcategory itself.
    const crafts = await h.db.category.findUniqueOrThrow({ where: { slug: "crafts" } });
    await expect(
      h.db.category.update({ where: { id: tea.id }, data: { parentId: crafts.id, level: 1 } }),
    ).rejects.toThrow();
    await expect(h.db.category.delete({ where: { id: green.id } })).rejects.toThrow();
  });
});

describe("search", () => {
  it("finds a product by a word of its Chinese title, and by English words in any case", async () => {
    const zh = await h.shop.catalog.search("紫砂");
    expect(zh.items.map((p) => p.sku)).toEqual(["POT-YIXING"]);
    const two = await h.shop.catalog.search("GREEN tea");
    expect(two.items.map((p) => p.sku)).toContain("TEA-LONGJING");
    expect(two.items.every((p) => /green/i.test(p.title.en) && /tea/i.test(p.title.en))).toBe(true);
    expect(two.fuzzy).toBe(false);
  });

  it("forgives a typo when nothing matches exactly, and finds nothing for a question", async () => {
    const typo = await h.shop.catalog.search("longjng");
    expect(typo).toMatchObject({ fuzzy: true });
    expect(typo.items.map((p) => p.sku)).toContain("TEA-LONGJING");
    expect((await h.shop.catalog.search("hi, do you ship to Berlin?")).total).toBe(0);
    expect((await h.shop.catalog.search("  %%  ")).total).toBe(0);
  });

  it("searches lowercase words, each once, the first five; a chat's limits are the chat's", () => {
    expect(searchWords(`${"茶".repeat(30)} tea`)).toEqual(["茶".repeat(30), "tea"]);
    expect(searchWords("Pu'er, CAKE! cake")).toEqual(["pu", "er", "cake"]);
    expect(searchWords("a b c d e f")).toEqual(["a", "b", "c", "d", "e"]);
  });

  it("pages the results", async () => {
    const first = await h.shop.catalog.search("tea", { pageSize: 4 });
    expect(first.total).toBeGreaterThan(4);
    expect(first.items).toHaveLength(4);
    expect(first.hasMore).toBe(true);
    const second = await h.shop.catalog.search("tea", { page: 2, pageSize: 4 });
    expect(second.items.map((p) => p.id)).not.toEqual(first.items.map((p) => p.id));
  });

  it("uses the trigram index over both titles", async () => {
    const plan = await h.db.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(`SET LOCAL enable_seqscan = off`);
      return tx.$queryRawUnsafe<{ "QUERY PLAN": string }[]>(
        `EXPLAIN SELECT id FROM products p WHERE p.active AND (p.title_en || ' ' || p.title_zh) ILIKE '%longjing%'`,
      );
    });
    expect(plan.map((r) => r["QUERY PLAN"]).join("\n")).toContain("products_title_trgm_idx");
  });
});
