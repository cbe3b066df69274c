import type { Database } from "./client.ts";

export interface SeedProduct {
  sku: string;
  titleEn: string;
  titleZh: string;
  /**
   * Price in minor units of `currency`: Telegram Stars by default (XTR has no fractional unit:
   * 1 minor unit = 1 Star); cents of the provider's currency for a physical product.
   */
  priceMinor: number;
  /** Default XTR: digital goods are sold for Stars, physical goods in the provider's currency. */
  currency?: string;
  /** Default DIGITAL (docs/architecture.md, Two kinds of goods). */
  kind?: "DIGITAL" | "PHYSICAL";
  stock: number;
  /** The slug of its category (one of the catalog's categories); none: "Other products". */
  category?: string;
  /** The card's photo: an HTTP(S) URL or a Telegram file_id; none: a text card. */
  photo?: string;
}

export interface SeedCategory {
  slug: string;
  titleEn: string;
  titleZh: string;
  /** The slug of the top-level category it belongs to; categories nest one level. */
  parent?: string;
}

/** Five top-level categories; tea has two subcategories. Parents come before their children. */
export const DEMO_CATEGORIES: readonly SeedCategory[] = [
  { slug: "tea", titleEn: "Tea", titleZh: "茶叶" },
  { slug: "green-tea", titleEn: "Green and white tea", titleZh: "绿茶与白茶", parent: "tea" },
  {
    slug: "dark-tea",
    titleEn: "Oolong, black and dark tea",
    titleZh: "乌龙、红茶与黑茶",
    parent: "tea",
  },
  { slug: "teaware", titleEn: "Teaware", titleZh: "茶具" },
  { slug: "sweets", titleEn: "Sweets and snacks", titleZh: "点心零食" },
  { slug: "crafts", titleEn: "Crafts", titleZh: "手工艺品" },
  { slug: "home", titleEn: "Home and kitchen", titleZh: "家居厨房" },
];

type Row = [sku: string, en: string, zh: string, price: number, stock: number, category: string];

// The first eight are the original demo products (tests rely on their skus, prices and stock).
const ROWS: readonly Row[] = [
  ["TEA-LONGJING", "Longjing green tea, 100 g", "龙井绿茶 100 克", 25, 40, "green-tea"],
  ["TEA-PUER", "Pu'er cake, 357 g", "普洱茶饼 357 克", 60, 20, "dark-tea"],
  ["CUP-CELADON", "Celadon tea cup", "青瓷茶杯", 15, 50, "teaware"],
  ["POT-YIXING", "Yixing clay teapot", "宜兴紫砂壶", 120, 10, "teaware"],
  ["SET-TRAVEL", "Travel tea set", "便携旅行茶具", 80, 15, "teaware"],
  ["MUG-PANDA", "Panda mug", "熊猫马克杯", 12, 60, "home"],
  ["FAN-SILK", "Silk hand fan", "丝绸折扇", 30, 25, "crafts"],
  ["MOONCAKE-BOX", "Mooncakes, box of 6", "月饼礼盒（6 枚）", 45, 30, "sweets"],
  ["TEA-BILUOCHUN", "Biluochun green tea, 50 g", "碧螺春绿茶 50 克", 35, 30, "green-tea"],
  ["TEA-MAOFENG", "Huangshan Maofeng, 100 g", "黄山毛峰 100 克", 28, 35, "green-tea"],
  ["TEA-BAIHAO", "Silver Needle white tea, 50 g", "白毫银针白茶 50 克", 55, 18, "green-tea"],
  ["TEA-JASMINE", "Jasmine pearls, 100 g", "茉莉龙珠 100 克", 32, 40, "green-tea"],
  ["TEA-TIEGUANYIN", "Tieguanyin oolong, 100 g", "铁观音乌龙茶 100 克", 30, 35, "dark-tea"],
  ["TEA-DAHONGPAO", "Da Hong Pao rock oolong, 50 g", "大红袍岩茶 50 克", 48, 22, "dark-tea"],
  ["TEA-KEEMUN", "Keemun black tea, 100 g", "祁门红茶 100 克", 26, 40, "dark-tea"],
  ["TEA-DIANHONG", "Yunnan golden black tea, 100 g", "滇红金芽 100 克", 29, 30, "dark-tea"],
  ["TEA-SAMPLER", "Tea tasting sampler, 8 kinds", "品鉴茶样 8 种", 40, 25, "tea"],
  ["TEA-CHRYSANTHEMUM", "Chrysanthemum flowers, 50 g", "杭白菊花茶 50 克", 14, 45, "tea"],
  ["CUP-GLASS", "Double-wall glass cup", "双层玻璃杯", 18, 40, "teaware"],
  ["GAIWAN-WHITE", "White porcelain gaiwan", "白瓷盖碗", 22, 30, "teaware"],
  ["PITCHER-GLASS", "Glass fairness pitcher", "玻璃公道杯", 16, 35, "teaware"],
  ["TRAY-BAMBOO", "Bamboo tea tray", "竹制茶盘", 65, 12, "teaware"],
  ["KETTLE-IRON", "Cast iron kettle", "铸铁壶", 150, 8, "teaware"],
  ["STRAINER-STEEL", "Steel tea strainer", "不锈钢滤茶器", 8, 70, "teaware"],
  ["SNACK-SESAME", "Sesame brittle, 200 g", "芝麻糖 200 克", 10, 50, "sweets"],
  ["SNACK-HAWTHORN", "Hawthorn flakes, 150 g", "山楂片 150 克", 7, 60, "sweets"],
  ["SNACK-PEANUT", "Spiced peanuts, 250 g", "五香花生 250 克", 9, 55, "sweets"],
  ["CAKE-PINEAPPLE", "Pineapple cakes, box of 10", "凤梨酥礼盒（10 枚）", 38, 25, "sweets"],
  ["CANDY-WHITE-RABBIT", "White Rabbit milk candy, 200 g", "大白兔奶糖 200 克", 11, 60, "sweets"],
  ["SNACK-LOTUS", "Lotus seed paste buns, 6", "莲蓉包 6 个", 20, 20, "sweets"],
  ["KNOT-RED", "Red Chinese knot", "红色中国结", 9, 50, "crafts"],
  ["PAPERCUT-SET", "Paper-cut set, 10 sheets", "剪纸套装 10 张", 12, 40, "crafts"],
  ["BRUSH-CALLIGRAPHY", "Calligraphy brush set", "书法毛笔套装", 42, 20, "crafts"],
  ["LANTERN-SILK", "Silk lantern", "丝绸灯笼", 34, 18, "crafts"],
  ["UMBRELLA-PAPER", "Oil-paper umbrella", "油纸伞", 58, 12, "crafts"],
  ["CHOPSTICKS-SET", "Wooden chopsticks, 5 pairs", "木筷五双装", 10, 80, "home"],
  ["BOWL-BLUE", "Blue and white rice bowl", "青花瓷饭碗", 14, 45, "home"],
  ["WOK-CARBON", "Carbon steel wok", "碳钢炒锅", 70, 10, "home"],
  ["STEAMER-BAMBOO", "Bamboo steamer", "竹蒸笼", 24, 25, "home"],
  ["APRON-LINEN", "Linen apron", "亚麻围裙", 27, 20, "home"],
];

// A few cards with a photo (stable public images, by id), beside text-only ones: browsing moves
// between the two kinds. Not on the first eight, whose text cards the tests read.
const PHOTOS: Readonly<Record<string, string>> = {
  "TEA-JASMINE": "https://picsum.photos/id/225/800/600",
  "TEA-KEEMUN": "https://picsum.photos/id/312/800/600",
  "CUP-GLASS": "https://picsum.photos/id/30/800/600",
};

export const DEMO_CATALOG: readonly SeedProduct[] = ROWS.map(
  ([sku, titleEn, titleZh, priceMinor, stock, category]) => ({
    sku,
    titleEn,
    titleZh,
    priceMinor,
    stock,
    category,
    ...(PHOTOS[sku] ? { photo: PHOTOS[sku] } : {}),
  }),
);

/**
 * Physical goods, shipped and paid through the payment provider in US dollars (cents): apart from
 * the demo catalog so that a shop without a provider (tests, a first run) sells only Stars goods;
 * `npm run db:seed`, the demo and the physical-goods tests load them.
 */
export const PHYSICAL_DEMO_CATALOG: readonly SeedProduct[] = [
  {
    sku: "SHIP-GONGFU-SET",
    titleEn: "Gongfu tea set, shipped",
    titleZh: "功夫茶具套装（邮寄）",
    priceMinor: 2_900,
    currency: "USD",
    kind: "PHYSICAL",
    stock: 40,
    category: "teaware",
  },
  {
    sku: "SHIP-TEA-GIFTBOX",
    titleEn: "Tea gift box, shipped",
    titleZh: "茶叶礼盒（邮寄）",
    priceMinor: 1_800,
    currency: "USD",
    kind: "PHYSICAL",
    stock: 60,
    category: "tea",
  },
];

/**
 * Loads a catalog idempotently: categories once (by slug), products once (by sku) with a SEED
 * ledger row; a second run changes nothing, so it never resets stock that orders have since moved
 * nor a category an operator has since changed.
 */
export async function seedCatalog(
  db: Database,
  catalog: readonly SeedProduct[] = DEMO_CATALOG,
  categories: readonly SeedCategory[] = catalog === DEMO_CATALOG ||
  catalog === PHYSICAL_DEMO_CATALOG
    ? DEMO_CATEGORIES
    : [],
): Promise<number> {
  const categoryIds = await seedCategories(db, categories);
  let created = 0;
  for (const { category, ...item } of catalog) {
    await db.$transaction(async (tx) => {
      const existing = await tx.product.findUnique({
        where: { sku: item.sku },
        select: { id: true },
      });
      if (existing) return;
      const categoryId = category === undefined ? null : categoryIds.get(category);
      if (categoryId === undefined) throw new Error(`seed: ${item.sku}: no category ${category}`);
      const product = await tx.product.create({
        data: {
          ...item,
          categoryId,
          currency: item.currency ?? "XTR",
          kind: item.kind ?? "DIGITAL",
        },
      });
      await tx.stockMovement.create({
        data: {
          productId: product.id,
          batchId: "seed",
          delta: item.stock,
          reason: "SEED",
          actor: "seed",
        },
      });
      created++;
    });
  }
  return created;
}

/** Creates the categories that do not exist yet (by slug); returns every slug's id. */
async function seedCategories(
  db: Database,
  categories: readonly SeedCategory[],
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const [position, c] of categories.entries()) {
    const parentId = c.parent === undefined ? null : ids.get(c.parent);
    if (parentId === undefined)
      throw new Error(`seed: category ${c.slug}: parent ${c.parent} first`);
    const row = await db.category.upsert({
      where: { slug: c.slug },
      create: {
        slug: c.slug,
        titleEn: c.titleEn,
        titleZh: c.titleZh,
        parentId,
        level: parentId === null ? 0 : 1,
        position: position + 1,
      },
      update: {},
      select: { id: true },
    });
    ids.set(c.slug, row.id);
  }
  return ids;
}
