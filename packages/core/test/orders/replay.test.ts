// A replay of an intent that was placed already (Telegram re-delivering the update, a double tap
// that missed the checkout lock) is answered with that order, whatever the replay would now be
// refused for: the stock, the promo use or the open-order slot it would need is the order's own.
// placeOrder does not look the key up for every order; reserveOrder looks it up on a refusal,
// and the unique key answers when the replay gets as far as the insert.
import { describe, expect, it } from "vitest";
import type { PlaceOrderInput } from "../../src/orders/index.ts";
import { addProduct, intent, user } from "../support/fixtures.ts";
import { assertInvariants } from "@orderbot/testkit";
import { HOARDING_CAP_OFF, useShopHarness } from "../support/shop.ts";
import { ownerActor } from "../../src/rights/index.ts";

const h = useShopHarness({ config: { maxOpenOrders: 1, ...HOARDING_CAP_OFF } });

/** Places `input`, runs `between`, replays it: the replay gets the first order, and only it exists. */
async function expectReplayAnswered(input: PlaceOrderInput, between?: () => Promise<unknown>) {
  const first = await h.shop.orders.placeOrder(input);
  if (first.status !== "ok") throw new Error(`placeOrder: ${first.status}`);
  await between?.();
  const replay = await h.shop.orders.placeOrder(input);
  expect(replay).toMatchObject({ status: "ok", replayed: true, order: { id: first.order.id } });
  expect(await h.db.order.count({ where: { userId: input.userId as bigint } })).toBe(1);
}

describe("a replay of an order placed already", () => {
  it("gets its order while the user is at the open-order cap, which the order itself fills", async () => {
    const p = await addProduct(h.db, { stock: 5 });
    const u = user(1);
    await expectReplayAnswered(intent(u, p.sku, 1, "cap"));
    // Another intent of the same user is refused: the cap holds.
    const other = await h.shop.orders.placeOrder(intent(u, p.sku, 1, "cap"));
    expect(other).toMatchObject({ status: "limit", open: 1, max: 1 });
  });

  it("gets its order after it took the last units", async () => {
    const p = await addProduct(h.db, { stock: 2 });
    const u = user(2);
    await expectReplayAnswered(intent(u, p.sku, 2, "last-units"));
  });

  it("gets its order after its product went off sale", async () => {
    const p = await addProduct(h.db, { stock: 5 });
    const u = user(3);
    const off = () => h.db.product.update({ where: { id: p.id }, data: { active: false } });
    await expectReplayAnswered(intent(u, p.sku, 1, "off"), off);
  });

  it("gets its order after it took the code's last use", async () => {
    const p = await addProduct(h.db, { stock: 5, priceMinor: 20 });
    const created = await h.shop.promotions.create({
      code: "last-use",
      kind: "PERCENT",
      value: 10,
      currency: null,
      totalUses: 1,
      actor: ownerActor(user(9)),
    });
    expect(created.status).toBe("ok");
    const code = await h.db.promoCode.findUniqueOrThrow({ where: { code: "LAST-USE" } });
    const u = user(4);
    await expectReplayAnswered({ ...intent(u, p.sku, 1, "promo"), promoCodeId: code.id });
    expect((await h.db.promoCode.findUniqueOrThrow({ where: { id: code.id } })).remainingUses).toBe(
      0,
    );
    await assertInvariants(h.db);
  });
});
