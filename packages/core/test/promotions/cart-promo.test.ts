// A code applied to a cart: checked at once with its reason, stored with the cart (a new
// revision), priced on the server at checkout; a late payment takes its use again or is refunded.
import { describe, expect, it } from "vitest";
import { addProduct, paymentFor, user } from "../support/fixtures.ts";
import { assertInvariants } from "@orderbot/testkit";
import { type ShopHarness, useShopHarness } from "../support/shop.ts";
import { ownerActor } from "../../src/rights/index.ts";

const h = useShopHarness({ config: { maxOpenOrders: 100 } });

const RESERVATION = 15 * 60_000;
const code = (over: Partial<Parameters<ShopHarness["shop"]["promotions"]["create"]>[0]> = {}) =>
  h.shop.promotions.create({
    code: `C${Math.random().toString(36).slice(2, 10)}`,
    kind: "PERCENT",
    value: 10,
    currency: null,
    totalUses: 10,
    actor: ownerActor(user(1)),
    ...over,
  });

describe("applyToCart", () => {
  it("stores the code with a new revision, so a Checkout drawn before is refused as changed", async () => {
    const p = await addProduct(h.db, { stock: 10, priceMinor: 25 });
    const buyer = user(100);
    await h.shop.cart.setQuantity({ userId: buyer, productId: p.id, quantity: 2 });
    const drawn = (await h.shop.cart.view(buyer)).revision;
    const created = await code({ code: "HALF", value: 50 });
    expect(created.status).toBe("ok");
    const applied = await h.shop.promotions.applyToCart({ userId: buyer, code: " half " });
    expect(applied).toMatchObject({
      status: "ok",
      changed: true,
      price: { discountMinor: 25, totalMinor: 25 },
      cart: { revision: drawn + 1, totalMinor: 50, promo: { code: "HALF", payableMinor: 25 } },
    });
    // The same code again changes nothing.
    expect(await h.shop.promotions.applyToCart({ userId: buyer, code: "HALF" })).toMatchObject({
      changed: false,
      cart: { revision: drawn + 1 },
    });
    expect(
      await h.shop.cart.checkout({
        userId: buyer,
        chatId: buyer,
        revision: drawn,
        idempotencyKey: "old",
      }),
    ).toMatchObject({ status: "cart-changed" });
    const placed = await h.shop.cart.checkout({
      userId: buyer,
      chatId: buyer,
      revision: drawn + 1,
      idempotencyKey: "new",
    });
    expect(placed).toMatchObject({
      status: "ok",
      order: { totalMinor: 25, promo: { code: "HALF", discountMinor: 25 } },
    });
    // Checkout empties the cart and takes its code off.
    expect((await h.shop.cart.view(buyer)).promo).toBeNull();
    // The order read back carries it too.
    if (placed.status !== "ok") throw new Error("unreachable");
    expect((await h.shop.orders.get(placed.order.id))?.promo).toEqual({
      code: "HALF",
      kind: "PERCENT",
      value: 50,
      discountMinor: 25,
    });
  });

  it("says why a code cannot be used, and leaves the cart as it was", async () => {
    const p = await addProduct(h.db, { stock: 10, priceMinor: 10 });
    const buyer = user(101);
    expect(await h.shop.promotions.applyToCart({ userId: buyer, code: "HALF" })).toEqual({
      status: "empty",
    });
    await h.shop.cart.setQuantity({ userId: buyer, productId: p.id, quantity: 1 });
    const before = await h.shop.cart.view(buyer);
    const reason = async (text: string) => {
      const r = await h.shop.promotions.applyToCart({ userId: buyer, code: text });
      return r.status === "promo-refused" ? r.reason : r.status;
    };
    expect(await reason("nope")).toBe("unknown");
    expect(await reason("no such code at all")).toBe("unknown");
    await code({ code: "LATER", startsAt: new Date(h.clock.now().getTime() + 60_000) });
    expect(await reason("LATER")).toBe("not-started");
    await code({ code: "OVER", endsAt: h.clock.now() });
    expect(await reason("OVER")).toBe("expired");
    await code({ code: "MIN", minTotalMinor: 11 });
    expect(await reason("MIN")).toBe("below-minimum");
    await code({ code: "USD5", kind: "FIXED", value: 500, currency: "USD" });
    expect(await reason("USD5")).toBe("currency");
    await code({ code: "OFF" });
    await h.shop.promotions.disable("off");
    expect(await reason("OFF")).toBe("inactive");
    await code({ code: "ONCE", totalUses: 1 });
    expect(await reason("ONCE")).toBe("ok");
    const once = await h.shop.cart.checkout({
      userId: buyer,
      chatId: buyer,
      revision: (await h.shop.cart.view(buyer)).revision,
      idempotencyKey: "once",
    });
    expect(once.status).toBe("ok");
    await h.shop.cart.setQuantity({ userId: buyer, productId: p.id, quantity: 1 });
    expect(await reason("ONCE")).toBe("used-up");
    const after = await h.shop.cart.view(buyer);
    expect(after.promo).toBeNull();
    expect(after.revision).toBeGreaterThan(before.revision);
  });
});

/** `buyer` checks one unit of `productId` out with `code` applied: the order, which must be placed. */
async function placeWithCode(productId: number, buyer: bigint, code: string, key: string) {
  await h.shop.cart.setQuantity({ userId: buyer, productId, quantity: 1 });
  await h.shop.promotions.applyToCart({ userId: buyer, code });
  const placed = await h.shop.cart.checkout({
    userId: buyer,
    chatId: buyer,
    revision: (await h.shop.cart.view(buyer)).revision,
    idempotencyKey: key,
  });
  if (placed.status !== "ok") throw new Error(placed.status);
  return placed.order;
}

describe("a late payment for an order whose use went back", () => {
  it("takes the use again when one is left", async () => {
    const p = await addProduct(h.db, { stock: 5, priceMinor: 20 });
    const created = await code({ code: "LATE1", totalUses: 1 });
    if (created.status !== "ok") throw new Error(created.status);
    const buyer = user(200);
    const order = await placeWithCode(p.id, buyer, "LATE1", "late1");
    h.clock.advance(RESERVATION + 1_000);
    await h.shop.orders.expireDue(h.clock.now());
    expect(
      (await h.db.promoCode.findUniqueOrThrow({ where: { code: "LATE1" } })).remainingUses,
    ).toBe(1);
    const paid = await h.shop.payments.confirmPayment(paymentFor(order));
    expect(paid).toMatchObject({ status: "ok", rereserved: true });
    expect(
      (await h.db.promoCode.findUniqueOrThrow({ where: { code: "LATE1" } })).remainingUses,
    ).toBe(0);
    expect(
      await h.db.promoUse.findUniqueOrThrow({
        where: {
          orderId: (await h.db.order.findUniqueOrThrow({ where: { publicId: order.id } })).id,
        },
      }),
    ).toMatchObject({ returnedAt: null });
    await assertInvariants(h.db);
  });

  it("is refunded when another order took the last use meanwhile", async () => {
    const p = await addProduct(h.db, { stock: 5, priceMinor: 20 });
    await code({ code: "LATE2", totalUses: 1 });
    const [first, second] = [user(300), user(301)];
    const place = (buyer: bigint, key: string) => placeWithCode(p.id, buyer, "LATE2", key);
    const late = await place(first, "late2-a");
    expect((await h.shop.orders.cancelOrder(late.id, first)).status).toBe("ok");
    await place(second, "late2-b");
    const paid = await h.shop.payments.confirmPayment(paymentFor(late));
    expect(paid).toMatchObject({ status: "refund-pending", reason: "late-promo-used-up" });
    expect((await h.shop.orders.get(late.id))?.status).toBe("CANCELLED");
    expect(
      (await h.db.promoCode.findUniqueOrThrow({ where: { code: "LATE2" } })).remainingUses,
    ).toBe(0);
    await assertInvariants(h.db);
  });
});
