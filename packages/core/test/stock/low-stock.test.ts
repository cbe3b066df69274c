// The low-stock alert is written by the change that lowers the stock, in its transaction
// (migration 20261207000000_low_stock_event): no process has to remember it after the commit.
import { beforeEach, describe, expect, it } from "vitest";
import { addProduct, intent, user } from "../support/fixtures.ts";
import { useShopHarness } from "../support/shop.ts";
import { ownerActor } from "../../src/rights/index.ts";

const h = useShopHarness();
const OPERATOR = user(900);

const alerts = () =>
  h.db.outboxMessage.findMany({
    where: { dedupeKey: { startsWith: "low-stock:" } },
    orderBy: { id: "asc" },
  });

async function today(): Promise<string> {
  const [row] = await h.db.$queryRaw<{ day: string }[]>`
    SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day`;
  return row!.day;
}

beforeEach(async () => {
  await h.db.outboxMessage.deleteMany();
  await h.db.operatorGroup.deleteMany();
});

describe("low-stock alerts", () => {
  it("are queued by the orders' own commits, once per group, level and day, however many race", async () => {
    const product = await addProduct(h.db, { stock: 8, priceMinor: 10 });
    await h.shop.groups.bind({ chatId: -1001, title: "A", boundBy: 1 }); // threshold 3, the default
    await h.shop.groups.bind({ chatId: -1002, title: "B", boundBy: 1 });
    await h.shop.groups.updateSettings({
      chatId: -1002,
      patch: { lowStockThreshold: 0 }, // never
      expectedVersion: 0,
      actor: 1,
    });
    const other = await h.instance();
    // Ten shoppers on two instances race for eight units, one each.
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 ? other.shop : h.shop).orders.placeOrder(intent(user(i + 1), product.sku, 1, "low")),
      ),
    );
    expect(results.filter((r) => r.status === "ok")).toHaveLength(8);

    const day = await today();
    const rows = await alerts();
    expect(rows.map((m) => [m.dedupeKey, m.chatId])).toEqual([
      [`low-stock:${product.sku}:low:${day}:-1001`, -1001n],
      [`low-stock:${product.sku}:out:${day}:-1001`, -1001n],
    ]);
    // The first order to leave 3 or fewer said so: the stock it left, and the group's threshold.
    expect(rows[0]!.payload).toEqual({
      template: "operator-low-stock",
      params: {
        sku: product.sku,
        titleEn: product.titleEn,
        titleZh: product.titleZh,
        stock: 3,
        threshold: 3,
      },
    });
    expect(rows[0]!.status).toBe("PENDING");
  });

  it("are queued by an operator's /stock that lowers it, and not by one that raises it", async () => {
    const product = await addProduct(h.db, { stock: 10, priceMinor: 10 });
    await h.shop.groups.bind({ chatId: -1001, title: "A", boundBy: 1 });
    expect(
      (await h.shop.stock.adjustStock(product.sku, { op: "add", units: 5 }, ownerActor(OPERATOR)))
        .status,
    ).toBe("ok");
    expect(
      (
        await h.shop.stock.adjustStock(
          product.sku,
          { op: "remove", units: 13 },
          ownerActor(OPERATOR),
        )
      ).status,
    ).toBe("ok");
    expect((await alerts()).map((m) => (m.payload as { params: object }).params)).toEqual([
      expect.objectContaining({ sku: product.sku, stock: 2 }),
    ]);
    expect(
      (await h.shop.stock.adjustStock(product.sku, { op: "add", units: 1 }, ownerActor(OPERATOR)))
        .status,
    ).toBe("ok");
    expect(await alerts()).toHaveLength(1);
  });

  it("are not queued while no group is bound, nor by an order that took nothing", async () => {
    const product = await addProduct(h.db, { stock: 2, priceMinor: 10 });
    expect((await h.shop.orders.placeOrder(intent(user(1), product.sku, 1, "low"))).status).toBe(
      "ok",
    );
    await h.shop.groups.bind({ chatId: -1001, title: "A", boundBy: 1 });
    const short = await h.shop.orders.placeOrder(intent(user(2), product.sku, 2, "low"));
    expect(short.status).toBe("out-of-stock");
    expect(await alerts()).toEqual([]);
  });
});
