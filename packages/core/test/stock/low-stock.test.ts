import { beforeAll, describe, expect, it } from "vitest";
import { seedCatalog } from "@orderbot/db";
import { createLowStockAlerts } from "../../src/stock/index.ts";
import { useShopHarness } from "../support/shop.ts";

const clock = { now: () => new Date("2026-03-01T10:00:00Z") };
const h = useShopHarness({ clockStart: "2026-03-01T10:00:00Z" });
beforeAll(async () => {
  await seedCatalog(h.db);
});

const outbox = () =>
  h.db.outboxMessage.findMany({
    where: { dedupeKey: { startsWith: "low-stock:" } },
    orderBy: { id: "asc" },
  });

describe("low-stock alerts", () => {
  it("queue nothing while no operator group is bound", async () => {
    await h.db.product.update({ where: { sku: "POT-YIXING" }, data: { stock: 1 } });
    expect(await createLowStockAlerts({ shop: h.shop, clock }).afterSale(["POT-YIXING"])).toBe(0);
    expect(await outbox()).toEqual([]);
  });

  it("tell each bound group once per product, level and day, at or below its own threshold", async () => {
    await h.shop.groups.bind({ chatId: -1001, title: "A", boundBy: 1 });
    await h.shop.groups.bind({ chatId: -1002, title: "B", boundBy: 1 });
    await h.shop.groups.updateSettings({
      chatId: -1002,
      patch: { lowStockThreshold: 0 },
      expectedVersion: 0,
      actor: 1,
    }); // B: never
    const alerts = createLowStockAlerts({ shop: h.shop, clock });

    expect(await alerts.afterSale(["POT-YIXING", "TEA-LONGJING"])).toBe(1); // 1 left (A's threshold is 3); tea has 40
    expect(await alerts.afterSale(["POT-YIXING"])).toBe(0); // the same level again: already told
    await h.db.product.update({ where: { sku: "POT-YIXING" }, data: { stock: 0 } });
    expect(await alerts.afterSale(["POT-YIXING"])).toBe(1); // sold out: a new level

    expect((await outbox()).map((m) => [m.dedupeKey, m.chatId])).toEqual([
      ["low-stock:POT-YIXING:low:2026-03-01:-1001", -1001n],
      ["low-stock:POT-YIXING:out:2026-03-01:-1001", -1001n],
    ]);
    expect((await outbox())[0]!.payload).toEqual({
      template: "operator-low-stock",
      params: {
        sku: "POT-YIXING",
        titleEn: "Yixing clay teapot",
        titleZh: "宜兴紫砂壶",
        stock: 1,
        threshold: 3,
      },
    });
  });
});
