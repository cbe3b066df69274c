// refunded_payment: a refund Telegram reports is recorded once, a PAID order goes REFUNDED with its
// stock back on sale, operators hear once; the echo of the shop's own refund changes nothing.
import { beforeAll, describe, expect, it } from "vitest";
import { addProduct, paymentFor, placed, stockOf, unique, user } from "../support/fixtures.ts";
import { assertInvariants } from "@orderbot/testkit";
import { deliveries } from "../support/deliveries.ts";
import { useShopHarness } from "../support/shop.ts";

const OPS_CHAT = -1_001_000_000_077n;
const h = useShopHarness();
beforeAll(async () => {
  await h.shop.groups.bind({ chatId: OPS_CHAT, title: "Ops", boundBy: user(900) });
});

const refundOf = (p: { telegramChargeId: string; userId: bigint; amount: number }) => ({
  telegramChargeId: p.telegramChargeId,
  userId: p.userId,
  amount: p.amount,
  currency: "XTR",
});
const alerts = (charge: string) => deliveries(h.db, `refunded-outside:${charge}:`);

describe("recordTelegramRefund", () => {
  it("refunds a PAID order whose payment Telegram refunded: payment REFUNDED, order REFUNDED, stock back, operators told once", async () => {
    const p = await addProduct(h.db, { stock: 5 });
    const order = await placed(h.shop, user(70), [{ sku: p.sku, quantity: 2 }]);
    const paid = paymentFor(order);
    expect((await h.shop.payments.confirmPayment(paid)).status).toBe("ok");
    expect(await stockOf(h.db, p.sku)).toBe(3);

    const results = await Promise.all([
      h.shop.payments.recordTelegramRefund(refundOf(paid)),
      h.shop.payments.recordTelegramRefund(refundOf(paid)),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(["already-refunded", "recorded"]);
    expect(results.find((r) => r.status === "recorded")).toEqual({
      status: "recorded",
      orderId: order.id,
      orderStatus: "REFUNDED",
    });
    expect(
      await h.db.payment.findUniqueOrThrow({ where: { telegramChargeId: paid.telegramChargeId } }),
    ).toMatchObject({ status: "REFUNDED", refundedBy: "telegram", refundedAt: h.clock.now() });
    expect((await h.shop.orders.get(order.id))?.status).toBe("REFUNDED");
    expect(await stockOf(h.db, p.sku)).toBe(5);
    expect(await alerts(paid.telegramChargeId)).toMatchObject([
      {
        chatId: OPS_CHAT,
        kind: "refund.outside",
        payload: { orderId: order.id, orderStatus: "REFUNDED", amountMinor: order.totalMinor },
      },
    ]);
    // No refund call: the money is back already.
    expect(
      await h.db.outboxMessage.count({ where: { dedupeKey: `refund:${paid.telegramChargeId}` } }),
    ).toBe(0);
    await assertInvariants(h.db);
  });

  it("leaves a DELIVERED order delivered (the goods went out) but records the refund", async () => {
    const p = await addProduct(h.db, { stock: 5 });
    const order = await placed(h.shop, user(71), [{ sku: p.sku, quantity: 1 }]);
    const paid = paymentFor(order);
    await h.shop.payments.confirmPayment(paid);
    await h.shop.fulfilment.advance({ orderId: order.id, to: "DELIVERED", actor: user(900) });
    expect(await h.shop.payments.recordTelegramRefund(refundOf(paid))).toEqual({
      status: "recorded",
      orderId: order.id,
      orderStatus: "DELIVERED",
    });
    expect((await h.shop.orders.get(order.id))?.status).toBe("DELIVERED");
    // The timeline says the money went back, and who sent it back.
    const timeline = (await h.shop.fulfilment.timelines([order.id])).get(order.id) ?? [];
    expect(timeline.at(-1)).toMatchObject({ event: "refund", to: "DELIVERED", actor: "telegram" });
    expect(await stockOf(h.db, p.sku)).toBe(4);
    expect(await alerts(paid.telegramChargeId)).toHaveLength(1);
  });

  it("completes a refund the shop owed, quietly, and is a no-op for the echo of its own refund", async () => {
    const p = await addProduct(h.db, { stock: 5 });
    const order = await placed(h.shop, user(72), [{ sku: p.sku, quantity: 1 }]);
    await h.shop.payments.confirmPayment(paymentFor(order));
    const second = paymentFor(order);
    await h.shop.payments.confirmPayment(second); // already paid: REFUND_PENDING
    expect(await h.shop.payments.recordTelegramRefund(refundOf(second))).toEqual({
      status: "completed",
    });
    expect(
      await h.db.payment.findUniqueOrThrow({
        where: { telegramChargeId: second.telegramChargeId },
      }),
    ).toMatchObject({ status: "REFUNDED", refundedBy: "telegram" });
    // The worker's refundStarPayment then comes back as refunded_payment: nothing more happens.
    expect(await h.shop.payments.recordTelegramRefund(refundOf(second))).toEqual({
      status: "already-refunded",
    });
    expect((await h.shop.orders.get(order.id))?.status).toBe("PAID");
    expect(await alerts(second.telegramChargeId)).toHaveLength(0);
    await assertInvariants(h.db);
  });

  it("records a refunded charge the shop never saw as a REFUNDED payment without an order; then its late successful_payment pays nothing", async () => {
    const p = await addProduct(h.db, { stock: 5 });
    const order = await placed(h.shop, user(73), [{ sku: p.sku, quantity: 1 }]);
    const paid = paymentFor(order, unique("never-seen"));
    expect(await h.shop.payments.recordTelegramRefund(refundOf(paid))).toEqual({
      status: "unknown-charge",
    });
    expect(
      await h.db.payment.findUniqueOrThrow({ where: { telegramChargeId: paid.telegramChargeId } }),
    ).toMatchObject({ orderId: null, status: "REFUNDED", amountMinor: order.totalMinor });
    expect(await alerts(paid.telegramChargeId)).toMatchObject([{ payload: { orderId: "" } }]);
    expect(await h.shop.payments.confirmPayment(paid)).toMatchObject({
      status: "refund-pending",
      duplicate: true,
    });
    expect((await h.shop.orders.get(order.id))?.status).toBe("RESERVED");
    expect(
      (await h.shop.payments.recordTelegramRefund({ ...refundOf(paid), amount: 0 })).status,
    ).toBe("invalid");
  });
});
