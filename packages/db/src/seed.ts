import type { Database } from "./client.ts";

export interface SeedProduct {
  sku: string;
  titleEn: string;
  titleZh: string;
  /** Price in Telegram Stars (XTR has no fractional unit: 1 minor unit = 1 Star). */
  priceMinor: number;
  stock: number;
}

export const DEMO_CATALOG: readonly SeedProduct[] = [
  {
    sku: "TEA-LONGJING",
    titleEn: "Longjing green tea, 100 g",
    titleZh: "龙井绿茶 100 克",
    priceMinor: 25,
    stock: 40,
  },
  {
    sku: "TEA-PUER",
    titleEn: "Pu'er cake, 357 g",
    titleZh: "普洱茶饼 357 克",
    priceMinor: 60,
    stock: 20,
  },
  {
    sku: "CUP-CELADON",
    titleEn: "Celadon tea cup",
    titleZh: "青瓷茶杯",
    priceMinor: 15,
    stock: 50,
  },
  {
    sku: "POT-YIXING",
    titleEn: "Yixing clay teapot",
    titleZh: "宜兴紫砂壶",
    priceMinor: 120,
    stock: 10,
  },
  {
    sku: "SET-TRAVEL",
    titleEn: "Travel tea set",
    titleZh: "便携旅行茶具",
    priceMinor: 80,
    stock: 15,
  },
  { sku: "MUG-PANDA", titleEn: "Panda mug", titleZh: "熊猫马克杯", priceMinor: 12, stock: 60 },
  { sku: "FAN-SILK", titleEn: "Silk hand fan", titleZh: "丝绸折扇", priceMinor: 30, stock: 25 },
  {
    sku: "MOONCAKE-BOX",
    titleEn: "Mooncakes, box of 6",
    titleZh: "月饼礼盒(6 枚)",
    priceMinor: 45,
    stock: 30,
  },
];

/**
 * Loads a catalog idempotently: products are created once (by sku) with a SEED ledger row, and a
 * second run changes nothing, so it never resets stock that orders have since moved.
 */
export async function seedCatalog(
  db: Database,
  catalog: readonly SeedProduct[] = DEMO_CATALOG,
): Promise<number> {
  let created = 0;
  for (const item of catalog) {
    await db.$transaction(async (tx) => {
      const existing = await tx.product.findUnique({
        where: { sku: item.sku },
        select: { id: true },
      });
      if (existing) return;
      const product = await tx.product.create({ data: { ...item, currency: "XTR" } });
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
