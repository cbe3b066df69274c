// Owner-scoped reads and moves: a customer's order is found only by its owner, and another
// customer's is answered exactly as one that does not exist (nothing tells it is there).
import { describe, expect, it } from "vitest";
import { addProduct, placed, stockOf, user } from "../support/fixtures.ts";
import { useShopHarness } from "../support/shop.ts";

const h = useShopHarness();

describe("a customer's own orders", () => {
  it("reads another customer's order exactly as a missing one", async () => {
    const p = await addProduct(h.db, { stock: 5 });
    const order = await placed(h.shop, user(1), [{ sku: p.sku, quantity: 1 }]);
    expect(await h.shop.orders.getOwn(order.id, user(1))).toMatchObject({ id: order.id });
    const missing = await h.shop.orders.getOwn("ZZZZZZZZ", user(2));
    expect(missing).toBeNull();
    expect(await h.shop.orders.getOwn(order.id, user(2))).toEqual(missing);
    expect(await h.shop.orders.getOwn(order.id, "not an id")).toBeNull();
  });

  it("refuses cancelling another customer's order exactly as a missing one, changing nothing", async () => {
    const p = await addProduct(h.db, { stock: 5 });
    const order = await placed(h.shop, user(3), [{ sku: p.sku, quantity: 2 }]);
    const missing = await h.shop.orders.cancelOrder("ZZZZZZZZ", user(4));
    expect(missing).toEqual({ status: "not-found" });
    expect(await h.shop.orders.cancelOrder(order.id, user(4))).toEqual(missing);
    expect(await h.shop.orders.get(order.id)).toMatchObject({ status: "RESERVED" });
    expect(await stockOf(h.db, p.sku)).toBe(3);
  });
});
