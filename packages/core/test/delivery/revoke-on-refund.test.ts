import { describe, expect, it } from "vitest";
import { addProduct, loadCodes, paymentFor, placed, stockOf, user } from "../support/fixtures.ts";
import { assertInvariants } from "@orderbot/testkit";
import { useShopHarness } from "../support/shop.ts";
import { ownerActor } from "../../src/rights/index.ts";

const h = useShopHarness();

const OPERATOR = 9_000_000_001n;
let customer = 0;

/** A digital product with `codes` in its pool, and a paid order of `quantity` of it. */
async function paidDigitalOrder(codes: string[], quantity: number) {
  const { sku } = await addProduct(h.db, { stock: 0 });
  await loadCodes(h.shop, sku, codes, OPERATOR);
  const order = await placed(h.shop, user(++customer), [{ sku, quantity }]);
  const payment = paymentFor(order);
  expect(await h.shop.payments.confirmPayment(payment)).toMatchObject({ status: "ok" });
  return { sku, order, payment };
}

const itemsOf = (orderId: string) =>
  h.db.digitalItem.findMany({ where: { order: { publicId: orderId } }, orderBy: { id: "asc" } });

describe("a refunded digital order's codes", () => {
  it("are revoked by an operator's /refund, not returned to stock, and never handed out again", async () => {
    const { sku, order } = await paidDigitalOrder(["R-1", "R-2", "R-3"], 2);
    expect((await itemsOf(order.id)).map((i) => i.secret)).toEqual(["R-1", "R-2"]);
    expect(await h.shop.delivery.orderCodes(order.id, order.userId)).toEqual(["R-1", "R-2"]);
    expect(await stockOf(h.db, sku)).toBe(1);

    expect(await h.shop.payments.refundOrder(order.id, ownerActor(OPERATOR))).toMatchObject({
      status: "ok",
      replayed: false,
    });
    const revoked = await itemsOf(order.id);
    expect(revoked).toHaveLength(2);
    expect(revoked.every((i) => i.revokedAt !== null)).toBe(true);
    expect(await stockOf(h.db, sku)).toBe(1); // the two delivered units stay out
    expect(await h.shop.delivery.orderCodes(order.id, order.userId)).toEqual([]);
    expect(await h.shop.delivery.pool(sku)).toMatchObject({
      stock: 1,
      unused: 1,
      assigned: 0,
      revoked: 2,
    });

    // The last code goes to the next buyer; a second unit finds the pool empty (revoked ones stay out).
    const next = await placed(h.shop, user(++customer), [{ sku, quantity: 1 }]);
    expect(await h.shop.payments.confirmPayment(paymentFor(next))).toMatchObject({
      status: "ok",
    });
    expect((await itemsOf(next.id)).map((i) => i.secret)).toEqual(["R-3"]);
    await assertInvariants(h.db);
  });

  it("are revoked when Telegram reports the refund (refunded_payment), once", async () => {
    const { sku, order, payment } = await paidDigitalOrder(["T-1", "T-2"], 1);
    const refund = {
      telegramChargeId: payment.telegramChargeId,
      userId: order.userId,
      amount: order.totalMinor,
      currency: order.currency,
    };
    expect(await h.shop.payments.recordTelegramRefund(refund)).toMatchObject({
      status: "recorded",
      orderStatus: "REFUNDED",
    });
    const [item] = await itemsOf(order.id);
    expect(item?.secret).toBe("T-1");
    expect(item?.revokedAt).not.toBeNull();
    const revokedAt = item!.revokedAt!;
    expect(await h.shop.payments.recordTelegramRefund(refund)).toEqual({
      status: "already-refunded",
    });
    expect((await itemsOf(order.id))[0]!.revokedAt).toEqual(revokedAt);
    expect(await stockOf(h.db, sku)).toBe(1);
    expect(await h.shop.delivery.pool(sku)).toMatchObject({ unused: 1, revoked: 1 });
    await assertInvariants(h.db);
  });

  it("cannot be given to another order or brought back, whoever writes", async () => {
    const { order } = await paidDigitalOrder(["G-1"], 1);
    const other = await placed(h.shop, user(++customer), [
      { sku: (await addProduct(h.db, { stock: 1 })).sku, quantity: 1 },
    ]);
    const [item] = await itemsOf(order.id);
    const otherId = (await h.db.order.findUniqueOrThrow({ where: { publicId: other.id } })).id;
    await expect(
      h.db.$executeRaw`UPDATE digital_items SET order_id = ${otherId} WHERE id = ${item!.id}`,
    ).rejects.toThrow(/already assigned/);
    await expect(
      h.db
        .$executeRaw`UPDATE digital_items SET order_id = NULL, assigned_at = NULL WHERE id = ${item!.id}`,
    ).rejects.toThrow(/already assigned/);
    await h.db.$executeRaw`UPDATE digital_items SET revoked_at = now() WHERE id = ${item!.id}`;
    await expect(
      h.db.$executeRaw`UPDATE digital_items SET revoked_at = NULL WHERE id = ${item!.id}`,
    ).rejects.toThrow(/revoked/);
  });
});
