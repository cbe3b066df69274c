// Races between instances on one order, with random interleavings. Each actor runs on its own
// instance (own pool, own Redis connection, own lock manager), after a random delay.
import { setTimeout as sleep } from "node:timers/promises";
import { beforeAll, describe, expect, it } from "vitest";
import { addProduct, paymentFor, placed, stockOf, unique, user } from "./support/fixtures.ts";
import { LEGAL_TRANSITIONS } from "../src/orders/index.ts";
import { assertInvariants, illegalTransitions, recordTransitions } from "@orderbot/testkit";
import { type Instance, HOARDING_CAP_OFF, useShopHarness } from "./support/shop.ts";

let instances: Instance[];
const h = useShopHarness({ config: { maxOpenOrders: 1_000, ...HOARDING_CAP_OFF } });
beforeAll(async () => {
  await recordTransitions(h.db);
  instances = [h.main, ...(await Promise.all([1, 2].map(() => h.instance())))];
});

const RESERVATION = 15 * 60_000;
const GRACE = 5 * 60_000;
const jitter = (maxMs = 4) => sleep(Math.random() * maxMs);

async function orderNet(orderId: string): Promise<number> {
  const sum = await h.db.stockMovement.aggregate({
    where: { order: { publicId: orderId } },
    _sum: { delta: true },
  });
  return sum._sum.delta ?? 0;
}

describe("payment vs expiry, 200 random interleavings", () => {
  it("ends every order PAID with its stock held, or EXPIRED with the payment REFUND_PENDING; each charge recorded once", async () => {
    const outcomes = { paid: 0, rereserved: 0, refunded: 0 };
    for (let i = 0; i < 200; i++) {
      const qty = 1 + (i % 3);
      // Stock for exactly this order: when it expires, a third customer may grab the units.
      const product = await addProduct(h.db, { stock: qty });
      const order = await placed(h.shop, user(i), [{ sku: product.sku, quantity: qty }]);
      if (i % 2 === 1) {
        const checked = await h.shop.payments.checkPayable({
          orderId: order.id,
          userId: order.userId,
          amount: order.totalMinor,
          currency: "XTR",
        });
        expect(checked.status).toBe("ok");
      }
      h.clock.advance(RESERVATION + GRACE + 1_000); // due, PAYING ones included
      const payment = paymentFor(order);
      const shuffled = [...instances].sort(() => Math.random() - 0.5);
      const [paid, expired] = await Promise.all([
        // Payment arrives anywhere from first to well after the expiry and the next customer.
        jitter(15).then(() => shuffled[0]!.shop.payments.confirmPayment(payment)),
        jitter().then(() => shuffled[1]!.shop.orders.expireDue(h.clock.now())),
        jitter().then(() =>
          shuffled[2]!.shop.orders.placeOrder({
            userId: user(10_000 + i),
            chatId: user(10_000 + i),
            items: [{ sku: product.sku, quantity: qty }],
            idempotencyKey: unique("thief"),
          }),
        ),
      ]);

      const final = (await h.shop.orders.get(order.id))!;
      const payments = await h.db.payment.findMany({
        where: { telegramChargeId: payment.telegramChargeId },
      });
      expect(payments).toHaveLength(1);
      if (final.status === "PAID") {
        expect(paid.status).toBe("ok");
        expect(payments[0]!.status).toBe("CAPTURED");
        expect(await orderNet(order.id)).toBe(-qty); // never paid with its stock released
        if (paid.status === "ok" && paid.rereserved) outcomes.rereserved++;
        else outcomes.paid++;
      } else {
        expect(final.status).toBe("EXPIRED");
        expect(expired.expired).toBeGreaterThanOrEqual(1);
        expect(paid).toMatchObject({ status: "refund-pending", reason: "late-out-of-stock" });
        expect(payments[0]!.status).toBe("REFUND_PENDING");
        expect(await orderNet(order.id)).toBe(0);
        outcomes.refunded++;
      }
    }
    console.log("payment vs expiry", outcomes);
    // The interleavings really varied (each outcome is reachable; the counts are random).
    expect(outcomes.paid + outcomes.rereserved + outcomes.refunded).toBe(200);
    expect(outcomes.paid).toBeGreaterThan(0);
    expect(outcomes.rereserved + outcomes.refunded).toBeGreaterThan(0);
    await assertInvariants(h.db);
    expect(await illegalTransitions(h.db, LEGAL_TRANSITIONS)).toEqual([]);
  });
});

describe("three-way race: cancel, pay and expire on one order from three instances", () => {
  it("lets exactly one move the order out of RESERVED, and conserves stock", async () => {
    const wins = { cancel: 0, pay: 0, expire: 0 };
    for (let i = 0; i < 100; i++) {
      const product = await addProduct(h.db, { stock: 10 });
      const order = await placed(h.shop, user(20_000 + i), [{ sku: product.sku, quantity: 2 }]);
      h.clock.advance(RESERVATION + 1_000);
      const [a, b, c] = [...instances].sort(() => Math.random() - 0.5);
      const [cancelled, paid, expired] = await Promise.all([
        jitter().then(() => a!.shop.orders.cancelOrder(order.id, order.userId)),
        jitter().then(() => b!.shop.payments.confirmPayment(paymentFor(order))),
        jitter().then(() => c!.shop.orders.expireDue(h.clock.now())),
      ]);
      const winners = [
        cancelled.status === "ok" && !cancelled.replayed ? "cancel" : null,
        paid.status === "ok" && !paid.rereserved ? "pay" : null,
        expired.expired > 0 ? "expire" : null,
      ].filter((w): w is keyof typeof wins => w !== null);
      expect(
        winners,
        `cancel ${cancelled.status}, pay ${paid.status}, expired ${expired.expired}`,
      ).toHaveLength(1);
      wins[winners[0]!]++;

      // The late payment, if it lost, re-reserved (stock was there): the order ends PAID either way.
      const final = (await h.shop.orders.get(order.id))!;
      expect(final.status).toBe("PAID");
      expect(await stockOf(h.db, product.sku)).toBe(8);
      expect(await orderNet(order.id)).toBe(-2);
    }
    console.log("three-way wins", wins);
    expect(wins.cancel + wins.pay + wins.expire).toBe(100);
    await assertInvariants(h.db);
    expect(await illegalTransitions(h.db, LEGAL_TRANSITIONS)).toEqual([]);
  });
});
