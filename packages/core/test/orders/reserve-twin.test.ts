// A twin of one intent that committed between placeOrder's key look-up and reserveOrder's read
// (a re-delivery of the update running beside the first one while the update and checkout locks
// are unavailable or a lease was lost): the stock it took is what is missing now, and the answer
// must be its order, not "out of stock".
import { describe, expect, it } from "vitest";
import { placeOrderSchema } from "../../src/orders/place-order-input.ts";
import { reserveOrder } from "../../src/orders/reserve.ts";
import { addProduct, intent, user } from "../support/fixtures.ts";
import { HOARDING_CAP_OFF, useShopHarness } from "../support/shop.ts";

const h = useShopHarness({ config: HOARDING_CAP_OFF });

describe("reserveOrder after its twin took the last units", () => {
  it("answers with the twin's order (replayed), not out-of-stock", async () => {
    const product = await addProduct(h.db, { stock: 2 });
    const input = placeOrderSchema(h.shop.deps.config).parse(
      intent(user(1), product.sku, 2, "twin"),
    );
    const first = await reserveOrder(h.shop.deps, input);
    expect(first.status).toBe("ok");
    // The twin got past placeOrder's look-up before the first committed: it reserves directly.
    const twin = await reserveOrder(h.shop.deps, input);
    expect(twin).toMatchObject({ status: "ok", replayed: true });
    if (first.status === "ok" && twin.status === "ok") expect(twin.order.id).toBe(first.order.id);
    expect(await h.db.order.count({ where: { userId: user(1) } })).toBe(1);
  });
});
