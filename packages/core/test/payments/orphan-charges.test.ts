// A charge whose invoice names no order we know still gets a payments row (REFUND_PENDING, no
// order), so everything that watches refunds owed sees it: the refunds job's queries, the
// refund-age gauge and the operators' listing, for Stars and for other currencies alike.
import { describe, expect, it } from "vitest";
import {
  manualRefundsNotAlerted,
  oldestRefundPendingAgeSeconds,
  starRefundsWithoutCall,
} from "../../src/payments/index.ts";
import { addProduct, paymentFor, placed, unique, user } from "../support/fixtures.ts";
import { assertInvariants } from "@orderbot/testkit";
import { useShopHarness } from "../support/shop.ts";

const h = useShopHarness();

const orphan = (currency: string, amount = 40) => ({
  orderId: "QQQQQQQQ",
  userId: user(50),
  telegramChargeId: unique(`orphan-${currency}`),
  amount,
  currency,
});

describe("a charge for an unknown order", () => {
  it("is a REFUND_PENDING payment without an order, in Stars and in other currencies", async () => {
    for (const currency of ["XTR", "USD"]) {
      const charge = orphan(currency);
      const result = await h.shop.payments.confirmPayment(charge);
      expect(result).toMatchObject({ status: "refund-pending", reason: "unknown-order" });
      const row = await h.db.payment.findUniqueOrThrow({
        where: { telegramChargeId: charge.telegramChargeId },
      });
      expect(row).toMatchObject({
        orderId: null,
        userId: user(50),
        amountMinor: 40,
        currency,
        status: "REFUND_PENDING",
      });
      // A second delivery of the same successful_payment records nothing more.
      expect(await h.shop.payments.confirmPayment(charge)).toMatchObject({
        status: "refund-pending",
        duplicate: true,
        payment: { orderId: null, status: "REFUND_PENDING" },
      });
      expect(
        await h.db.payment.count({ where: { telegramChargeId: charge.telegramChargeId } }),
      ).toBe(1);
    }
    await assertInvariants(h.db);
  });

  it("is seen by the refund-age gauge, the refunds job's queries and the operators' listing", async () => {
    await h.db.outboxMessage.deleteMany({});
    await h.db.payment.deleteMany({});
    const stars = orphan("XTR", 70);
    const usd = orphan("USD", 900);
    await h.shop.payments.confirmPayment(stars);
    await h.shop.payments.confirmPayment(usd);
    expect(await oldestRefundPendingAgeSeconds(h.db)).toBeGreaterThanOrEqual(0);
    expect(await h.db.payment.count({ where: { status: "REFUND_PENDING" } })).toBe(2);

    // With the outbox lost (rows written before this code, a restore), the job's queries find both.
    await h.db.outboxMessage.deleteMany({});
    await h.db.$executeRaw`DELETE FROM events`;
    expect(
      (await starRefundsWithoutCall(h.db, 10)).map((r) => [r.telegramChargeId, r.orderPublicId]),
    ).toEqual([[stars.telegramChargeId, null]]);
    expect(
      (await manualRefundsNotAlerted(h.db, 10)).map((r) => [r.telegramChargeId, r.orderPublicId]),
    ).toEqual([[usd.telegramChargeId, null]]);

    const { sections } = await h.shop.payments.moneyExceptions({ limit: 10 });
    expect(sections).toMatchObject([
      {
        kind: "refunds",
        total: 2,
        refunds: [
          // To refund by hand comes before waiting for Telegram.
          { telegramChargeId: usd.telegramChargeId, orderId: null, state: { kind: "by-hand" } },
          {
            telegramChargeId: stars.telegramChargeId,
            orderId: null,
            state: { kind: "waiting-telegram" },
          },
        ],
      },
    ]);
  });

  it("can never be CAPTURED, and one order still has at most one CAPTURED payment", async () => {
    await expect(
      h.db
        .$executeRaw`INSERT INTO payments (order_id, user_id, telegram_charge_id, amount_minor, currency, status)
                       VALUES (NULL, 1, ${unique("bad")}, 5, 'XTR', 'CAPTURED')`,
    ).rejects.toThrow(/payments_captured_has_order/);
    const p = await addProduct(h.db, { stock: 2 });
    const order = await placed(h.shop, user(51), [{ sku: p.sku, quantity: 1 }]);
    expect((await h.shop.payments.confirmPayment(paymentFor(order))).status).toBe("ok");
    const [row] = await h.db.payment.findMany({ where: { order: { publicId: order.id } } });
    await expect(
      h.db
        .$executeRaw`INSERT INTO payments (order_id, user_id, telegram_charge_id, amount_minor, currency, status)
                       VALUES (${row!.orderId}, 1, ${unique("twice")}, 5, 'XTR', 'CAPTURED')`,
    ).rejects.toThrow(/payments_one_captured_per_order/);
  });
});
