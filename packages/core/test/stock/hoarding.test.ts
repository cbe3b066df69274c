// Stock hoarding by many accounts: a per-product cap on what unpaid orders hold together, held
// under concurrent placements; a bound on how often pre-checkout extends a PAYING hold; the
// share held unpaid as a metric. Real PostgreSQL and Redis, several shop instances.
import { beforeAll, describe, expect, it } from "vitest";
import { defaultShopConfig, shopSettingsSchema } from "../../src/shop-settings.ts";
import { STOCK_HOLD_METRICS } from "../../src/stock/unpaid-holds.ts";
import { addProduct, intent, payable, placed, user } from "../support/fixtures.ts";
import { type Instance, useShopHarness } from "../support/shop.ts";

let instances: Instance[];
const h = useShopHarness({ config: { maxPayingExtensions: 2 } });
beforeAll(async () => {
  instances = [h.main, ...(await Promise.all([1, 2, 3].map(() => h.instance())))];
});

/** Units of the product in open (RESERVED or PAYING) orders. */
async function heldOf(productId: number): Promise<number> {
  const items = await h.db.orderItem.findMany({
    where: { productId, order: { status: { in: ["RESERVED", "PAYING"] } } },
  });
  return items.reduce((sum, i) => sum + i.quantity, 0);
}

describe("the per-product cap on units held unpaid", () => {
  it("holds under 24 concurrent placements from 24 accounts on 4 instances: at most half of 20 units held", async () => {
    const product = await addProduct(h.db, { stock: 20 });
    const results = await Promise.all(
      Array.from({ length: 24 }, (_, n) =>
        instances[n % instances.length]!.shop.orders.placeOrder(
          intent(user(1_000 + n), product.sku, 2, "hoard"),
        ),
      ),
    );
    const ok = results.filter((r) => r.status === "ok");
    expect(ok).toHaveLength(5); // 5 × 2 = 10 = half of 20
    for (const r of results.filter((r) => r.status !== "ok"))
      expect(r).toMatchObject({
        status: "out-of-stock",
        short: [{ sku: product.sku, requested: 2, available: 0 }],
      });
    expect(await heldOf(product.id)).toBe(10);
    // Nothing lost: what is free plus what is held is what there was.
    const after = await h.db.product.findUniqueOrThrow({ where: { id: product.id } });
    expect(after.stock + (await heldOf(product.id))).toBe(20);
  });

  it("tells a buyer over the cap how many units are still allowed, and counts sold units out", async () => {
    const product = await addProduct(h.db, { stock: 10 });
    await placed(h.shop, user(2_001), [{ sku: product.sku, quantity: 4 }]); // cap 5: 4 held
    expect(
      await h.shop.orders.placeOrder(intent(user(2_002), product.sku, 3, "hoard")),
    ).toMatchObject({ status: "out-of-stock", short: [{ requested: 3, available: 1 }] });
    expect(await heldOf(product.id)).toBe(4);
    // A product with one unit can always be reserved by someone.
    const last = await addProduct(h.db, { stock: 1 });
    await placed(h.shop, user(2_003), [{ sku: last.sku, quantity: 1 }]);
  });

  it("answers a share that floats cannot hold exactly (0.14 of 50) as the database counts it", async () => {
    // The trigger's cap is exact numeric, 7; 0.14 × 50 in a float is 7.000000000000001. Over the
    // cap, the answer must still name what is left, not retry a shortfall it cannot see as "busy".
    const share = await h.instance({ config: { maxUnpaidShare: 0.14 } });
    const product = await addProduct(h.db, { stock: 50 });
    expect(
      await share.shop.orders.placeOrder(intent(user(2_101), product.sku, 8, "hoard")),
    ).toMatchObject({ status: "out-of-stock", short: [{ requested: 8, available: 7 }] });
    expect(await heldOf(product.id)).toBe(0);
  });

  it("is a validated setting, on by default: a share of 0 or above 1 is refused", () => {
    for (const share of ["0", "-0.5", "1.5"])
      expect(shopSettingsSchema.safeParse({ ORDER_MAX_UNPAID_SHARE: share }).success).toBe(false);
    expect(defaultShopConfig("k".repeat(16)).maxUnpaidShare).toBe(0.5);
  });

  it("exports the share of each product's unsold units held unpaid", async () => {
    const product = await addProduct(h.db, { stock: 8 });
    await placed(h.shop, user(3_001), [{ sku: product.sku, quantity: 2 }]); // held 2 of 8
    const metric = await h.main.registry.getSingleMetric(STOCK_HOLD_METRICS.heldUnpaid)?.get();
    const value = metric?.values.find((v) => v.labels.sku === product.sku)?.value;
    expect(value).toBeCloseTo(0.25);
  });
});

describe("the bound on pre-checkout extending a PAYING hold", () => {
  it("extends at most maxPayingExtensions times, then answers yes while the hold lasts and no after", async () => {
    const product = await addProduct(h.db, { stock: 100 });
    const order = await placed(h.shop, user(4_001), [{ sku: product.sku, quantity: 1 }]);
    const check = () => h.shop.payments.checkPayable(payable(order));
    const expiry = async () =>
      (await h.db.order.findUniqueOrThrow({ where: { publicId: order.id } })).expiresAt.getTime();

    h.clock.advance(14 * 60_000);
    expect((await check()).status).toBe("ok"); // RESERVED → PAYING, held until now + 5 min
    const extended: number[] = [await expiry()];
    for (let i = 0; i < 2; i++) {
      h.clock.advance(4 * 60_000);
      expect((await check()).status).toBe("ok");
      extended.push(await expiry());
    }
    expect(extended[1]).toBeGreaterThan(extended[0]!);
    expect(extended[2]).toBeGreaterThan(extended[1]!);
    // The third extension is refused: the hold stays where it was.
    h.clock.advance(4 * 60_000);
    expect((await check()).status).toBe("ok");
    expect(await expiry()).toBe(extended[2]);
    // Once that hold has run out, a pre-checkout is refused rather than holding on.
    h.clock.advance(2 * 60_000);
    expect(await check()).toEqual({ status: "refused", reason: "expired" });
  });
});
