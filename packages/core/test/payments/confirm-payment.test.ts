import { beforeAll, describe, expect, it } from "vitest";
import { paymentNoticeKey } from "../../src/payments/index.ts";
import { addProduct, paymentFor, placed, stockOf, unique, user } from "../support/fixtures.ts";
import { assertInvariants } from "@orderbot/testkit";
import { deliveries } from "../support/deliveries.ts";
import { useShopHarness } from "../support/shop.ts";
import { ownerActor } from "../../src/rights/index.ts";

const OPS_CHAT = -1_001_000_000_001n;
const h = useShopHarness();
beforeAll(async () => {
  await h.shop.groups.bind({ chatId: OPS_CHAT, title: "Ops", boundBy: user(900) });
});

const alertsOf = (prefix: string) => deliveries(h.db, prefix);
const outbox = (prefix: string) =>
  h.db.outboxMessage.findMany({
    where: { dedupeKey: { startsWith: prefix } },
    orderBy: { id: "asc" },
  });

describe("confirmPayment", () => {
  it("pays a RESERVED or PAYING order: PAID, one CAPTURED payment, operators told once, the user's confirmation queued", async () => {
    const p = await addProduct(h.db, { stock: 10, priceMinor: 30 });
    const reserved = await placed(h.shop, user(1), [{ sku: p.sku, quantity: 2 }]);
    const paying = await placed(h.shop, user(2), [{ sku: p.sku, quantity: 1 }]);
    expect(
      (
        await h.shop.payments.checkPayable({
          orderId: paying.id,
          userId: paying.userId,
          amount: 30,
          currency: "XTR",
        })
      ).status,
    ).toBe("ok");

    for (const order of [reserved, paying]) {
      const payment = paymentFor(order);
      const result = await h.shop.payments.confirmPayment(payment);
      expect(result).toMatchObject({
        status: "ok",
        duplicate: false,
        rereserved: false,
        order: { id: order.id, status: "PAID" },
        payment: {
          telegramChargeId: payment.telegramChargeId,
          status: "CAPTURED",
          amountMinor: order.totalMinor,
          currency: "XTR",
        },
      });
      const alerts = await alertsOf(`paid:${order.id}:`);
      expect(alerts).toMatchObject([
        {
          chatId: OPS_CHAT,
          kind: "order.paid",
          payload: { orderId: order.id },
        },
      ]);
      // The user's confirmation, due once the bot has had its grace period to say it first.
      const notices = await h.db.$queryRaw<
        { payload: object; not_before: Date; recipients: bigint[] }[]
      >`
        SELECT payload, not_before,
               ARRAY(SELECT chat_id FROM event_recipients(kind, payload, NULL)) AS recipients
          FROM events WHERE delivery_key = ${paymentNoticeKey(order.id)}`;
      expect(notices).toHaveLength(1);
      const notice = notices[0];
      expect(notice).toMatchObject({
        payload: { kind: "payment.received", orderId: order.id, codesDelivered: false },
        recipients: [order.chatId],
      });
      expect(notice!.not_before.getTime() - h.clock.now().getTime()).toBe(20_000); // the default
    }
    expect(await stockOf(h.db, p.sku)).toBe(7);
    await assertInvariants(h.db);
  });

  it("records a charge id once: a repeat is a no-op that returns the first outcome", async () => {
    const p = await addProduct(h.db, { stock: 10 });
    const order = await placed(h.shop, user(3), [{ sku: p.sku, quantity: 1 }]);
    const payment = paymentFor(order);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => h.shop.payments.confirmPayment(payment)),
    );
    expect(results.every((r) => r.status === "ok")).toBe(true);
    expect(results.filter((r) => r.status === "ok" && !r.duplicate)).toHaveLength(1);
    expect(
      await h.db.payment.count({ where: { telegramChargeId: payment.telegramChargeId } }),
    ).toBe(1);
    expect(await alertsOf(`paid:${order.id}:`)).toHaveLength(1); // the operators' alert
    expect(await h.db.event.count({ where: { deliveryKey: paymentNoticeKey(order.id) } })).toBe(1);
  });

  it("re-reserves a late payment for an expired order when the stock is still there (ledger RERESERVE)", async () => {
    const p = await addProduct(h.db, { stock: 5 });
    const order = await placed(h.shop, user(4), [{ sku: p.sku, quantity: 2 }]);
    h.clock.advance(16 * 60_000);
    expect((await h.shop.orders.expireDue(h.clock.now())).expired).toBeGreaterThanOrEqual(1);
    expect(await stockOf(h.db, p.sku)).toBe(5);

    const result = await h.shop.payments.confirmPayment(paymentFor(order));
    expect(result).toMatchObject({
      status: "ok",
      rereserved: true,
      order: { status: "PAID" },
      payment: { status: "CAPTURED" },
    });
    expect(await stockOf(h.db, p.sku)).toBe(3);
    const ledger = await h.db.stockMovement.findMany({
      where: { order: { publicId: order.id } },
      orderBy: { id: "asc" },
    });
    expect(ledger.map((m) => [m.reason, m.delta])).toEqual([
      ["RESERVE", -2],
      ["RELEASE", 2],
      ["RERESERVE", -2],
    ]);
    await assertInvariants(h.db);
  });

  it("puts a late payment up for refund when the stock is gone: REFUND_PENDING, refund queued, user and operators told", async () => {
    const p = await addProduct(h.db, { stock: 1, priceMinor: 40 });
    const order = await placed(h.shop, user(5), [{ sku: p.sku, quantity: 1 }]);
    expect((await h.shop.orders.cancelOrder(order.id, order.userId)).status).toBe("ok");
    await placed(h.shop, user(6), [{ sku: p.sku, quantity: 1 }]); // someone else takes the unit

    const payment = paymentFor(order);
    const result = await h.shop.payments.confirmPayment(payment);
    expect(result).toMatchObject({
      status: "refund-pending",
      reason: "late-out-of-stock",
      duplicate: false,
      order: { status: "CANCELLED" },
      payment: { status: "REFUND_PENDING" },
    });
    expect(await stockOf(h.db, p.sku)).toBe(0);
    expect(await outbox(`refund:${payment.telegramChargeId}`)).toMatchObject([
      {
        chatId: user(5),
        method: "refundStarPayment",
        payload: { user_id: Number(user(5)), telegram_payment_charge_id: payment.telegramChargeId },
      },
    ]);
    // The payer is told in the order's chat, and no operator chat is.
    expect(await alertsOf(`refund-notice:${payment.telegramChargeId}:`)).toEqual([
      {
        dedupeKey: `refund-notice:${payment.telegramChargeId}:${user(5)}`,
        chatId: user(5),
        kind: "payment.rejected",
        payload: {
          kind: "payment.rejected",
          orderId: order.id,
          reason: "late-out-of-stock",
          amountMinor: 40,
          currency: "XTR",
          telegramChargeId: payment.telegramChargeId,
        },
      },
    ]);
    expect(await alertsOf(`refund-alert:${payment.telegramChargeId}`)).toMatchObject([
      {
        chatId: OPS_CHAT,
        kind: "refund.needed",
        payload: { reason: "late-out-of-stock", automatic: 1 },
      },
    ]);
    // A repeat changes nothing and says so.
    expect(await h.shop.payments.confirmPayment(payment)).toMatchObject({
      status: "refund-pending",
      reason: "duplicate",
      duplicate: true,
    });
    expect(
      await h.db.payment.count({ where: { telegramChargeId: payment.telegramChargeId } }),
    ).toBe(1);
    await assertInvariants(h.db);
  });

  it("refunds a second payment for a paid order, a wrong amount and another user's payment", async () => {
    const p = await addProduct(h.db, { stock: 10, priceMinor: 20 });
    const order = await placed(h.shop, user(7), [{ sku: p.sku, quantity: 1 }]);
    expect((await h.shop.payments.confirmPayment(paymentFor(order))).status).toBe("ok");
    expect(await h.shop.payments.confirmPayment(paymentFor(order))).toMatchObject({
      status: "refund-pending",
      reason: "already-paid",
      order: { status: "PAID" },
    });

    const other = await placed(h.shop, user(8), [{ sku: p.sku, quantity: 1 }]);
    expect(
      await h.shop.payments.confirmPayment({ ...paymentFor(other), amount: 19 }),
    ).toMatchObject({
      status: "refund-pending",
      reason: "amount-mismatch",
      order: { status: "RESERVED" },
    });
    expect(
      await h.shop.payments.confirmPayment({ ...paymentFor(other), userId: user(9) }),
    ).toMatchObject({
      status: "refund-pending",
      reason: "not-yours",
    });
    expect(
      await h.db.payment.count({
        where: { order: { publicId: other.id }, status: "REFUND_PENDING" },
      }),
    ).toBe(2);
    await assertInvariants(h.db);
  });

  it("keeps the money of a payment for an unknown order: a payment row without an order, refund queued, operators told", async () => {
    const chargeId = unique("orphan");
    const result = await h.shop.payments.confirmPayment({
      orderId: "ZZZZZZZZ",
      userId: user(10),
      telegramChargeId: chargeId,
      amount: 50,
      currency: "XTR",
    });
    expect(result).toEqual({
      status: "refund-pending",
      reason: "unknown-order",
      order: null,
      payment: {
        telegramChargeId: chargeId,
        orderId: null,
        amountMinor: 50,
        currency: "XTR",
        status: "REFUND_PENDING",
      },
      duplicate: false,
    });
    expect(await outbox(`refund:${chargeId}`)).toHaveLength(1);
    expect(await alertsOf(`refund-alert:${chargeId}`)).toHaveLength(1);
    // No order to find the payer by: the payment's user, in their private chat.
    expect(await alertsOf(`refund-notice:${chargeId}:`)).toMatchObject([
      { chatId: user(10), kind: "payment.rejected", payload: { orderId: "" } },
    ]);
  });

  it("leaves refunds in other currencies to operators: no refundStarPayment", async () => {
    const p = await addProduct(h.db, { stock: 1, currency: "USD", priceMinor: 500 });
    const order = await placed(h.shop, user(11), [{ sku: p.sku, quantity: 1 }]);
    expect((await h.shop.payments.confirmPayment(paymentFor(order))).status).toBe("ok");
    const second = paymentFor(order);
    expect((await h.shop.payments.confirmPayment(second)).status).toBe("refund-pending");
    expect(await outbox(`refund:${second.telegramChargeId}`)).toEqual([]);
    expect(await alertsOf(`refund-alert:${second.telegramChargeId}`)).toMatchObject([
      { payload: { automatic: 0, currency: "USD" } },
    ]);
  });

  it("reports invalid fields without recording anything", async () => {
    const result = await h.shop.payments.confirmPayment({
      orderId: "",
      userId: user(12),
      telegramChargeId: "",
      amount: 0,
      currency: "stars",
    });
    expect(result.status).toBe("invalid");
    if (result.status === "invalid") expect(result.problems).toHaveLength(4);
  });

  it("counts payments and refunds", async () => {
    const text = await h.main.registry.metrics();
    expect(text).toMatch(/orderbot_payments_total\{outcome="captured"\} \d+/);
    expect(text).toMatch(/orderbot_payments_total\{outcome="rereserved"\} 1/);
    expect(text).toMatch(/orderbot_payments_total\{outcome="duplicate"\} \d+/);
    expect(text).toMatch(/orderbot_refunds_total\{reason="late_out_of_stock"\} 1/);
  });
});

describe("refundOrder (operator) and refund tracking", () => {
  it("refunds a paid order: REFUNDED, payment REFUND_PENDING, stock back through RESTOCK, once", async () => {
    const p = await addProduct(h.db, { stock: 5, priceMinor: 25 });
    const order = await placed(h.shop, user(20), [{ sku: p.sku, quantity: 2 }]);
    const payment = paymentFor(order);
    await h.shop.payments.confirmPayment(payment);
    expect(await stockOf(h.db, p.sku)).toBe(3);

    const result = await h.shop.payments.refundOrder(order.id, ownerActor(user(900)));
    expect(result).toMatchObject({
      status: "ok",
      replayed: false,
      order: { status: "REFUNDED" },
      payments: [{ telegramChargeId: payment.telegramChargeId, status: "REFUND_PENDING" }],
    });
    expect(await stockOf(h.db, p.sku)).toBe(5);
    const restock = await h.db.stockMovement.findMany({
      where: { order: { publicId: order.id }, reason: "RESTOCK" },
    });
    expect(restock).toMatchObject([{ delta: 2, actor: expect.stringMatching(/^op:/) }]);
    expect(restock[0]!.actor).not.toContain(String(user(900)));
    expect(await outbox(`refund:${payment.telegramChargeId}`)).toHaveLength(1);
    expect(await alertsOf(`refund-notice:${payment.telegramChargeId}:`)).toMatchObject([
      { chatId: order.chatId, kind: "order.refunded", payload: { orderId: order.id } },
    ]);

    expect(await h.shop.payments.refundOrder(order.id, ownerActor(user(900)))).toMatchObject({
      status: "ok",
      replayed: true,
    });
    expect(await stockOf(h.db, p.sku)).toBe(5);
    await assertInvariants(h.db);

    expect((await h.shop.payments.pendingRefunds(100)).map((r) => r.telegramChargeId)).toContain(
      payment.telegramChargeId,
    );
    expect(await h.shop.payments.markRefunded(payment.telegramChargeId)).toBe(true);
    expect(await h.shop.payments.markRefunded(payment.telegramChargeId)).toBe(false);
    expect(
      await h.db.payment.findUniqueOrThrow({
        where: { telegramChargeId: payment.telegramChargeId },
      }),
    ).toMatchObject({ status: "REFUNDED", refundedAt: h.clock.now() });
  });

  it("refuses to refund what is not paid, and unknown orders", async () => {
    const p = await addProduct(h.db, { stock: 5 });
    const order = await placed(h.shop, user(21), [{ sku: p.sku, quantity: 1 }]);
    expect(await h.shop.payments.refundOrder(order.id, ownerActor(user(900)))).toEqual({
      status: "conflict",
      current: "RESERVED",
    });
    expect(await h.shop.payments.refundOrder("ZZZZZZZZ", ownerActor(user(900)))).toEqual({
      status: "not-found",
    });
    expect((await h.shop.payments.refundOrder("??", ownerActor(user(900)))).status).toBe("invalid");
  });

  it("delivers a paid order once; a delivered order is refunded only with a reason", async () => {
    const p = await addProduct(h.db, { stock: 5 });
    const order = await placed(h.shop, user(22), [{ sku: p.sku, quantity: 1 }]);
    await h.shop.payments.confirmPayment(paymentFor(order));
    const deliver = () =>
      h.shop.fulfilment.advance({ orderId: order.id, to: "DELIVERED", actor: user(900) });
    expect(await deliver()).toMatchObject({ status: "ok", order: { status: "DELIVERED" } });
    expect(await deliver()).toMatchObject({ status: "already", current: "DELIVERED" });
    expect(await h.shop.payments.refundOrder(order.id, ownerActor(user(900)))).toEqual({
      status: "reason-required",
      current: "DELIVERED",
    });
    await assertInvariants(h.db);
  });
});
