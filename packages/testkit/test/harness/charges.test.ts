// "Every charge accounted for" against a real database: each way a charge can end, and each way it
// can be lost or refunded twice.
import { beforeEach, describe, expect, it } from "vitest";
import { checkChargesAccounted, useTestDatabase, type ChargeLedger } from "@orderbot/testkit";

const { db } = useTestDatabase();

beforeEach(async () => {
  await db.$executeRawUnsafe(
    "TRUNCATE payments, order_items, orders, outbox_messages RESTART IDENTITY CASCADE",
  );
});

let n = 0;
type PaymentStatus = "CAPTURED" | "REFUND_PENDING" | "REFUNDED";
type OrderStatus = "PAID" | "SHIPPED" | "DELIVERED" | "CANCELLED" | "REFUNDED";

/** A payment for charge `id`, with an order in `order` status, or none (a charge for no order). */
async function payment(
  id: string,
  status: PaymentStatus,
  order: OrderStatus | null,
  extra: { refundedBy?: string; currency?: string } = {},
) {
  n++;
  const row =
    order === null
      ? null
      : await db.order.create({
          data: {
            publicId: `C${n}`,
            userId: 1n,
            chatId: 1n,
            status: order,
            totalMinor: 20,
            currency: extra.currency ?? "XTR",
            expiresAt: new Date(Date.now() + 60_000),
            idempotencyKey: `charge-${n}`,
          },
        });
  await db.payment.create({
    data: {
      orderId: row?.id ?? null,
      userId: 1n,
      telegramChargeId: id,
      amountMinor: 20,
      currency: extra.currency ?? "XTR",
      status,
      ...(extra.refundedBy ? { refundedBy: extra.refundedBy } : {}),
    },
  });
}

async function queueRefund(id: string) {
  await db.outboxMessage.create({
    data: {
      dedupeKey: `refund:${id}`,
      chatId: 1n,
      method: "refundStarPayment",
      payload: { user_id: 1, telegram_payment_charge_id: id },
    },
  });
}

const stars = (chargeId: string, refundedAt?: number) => ({
  chargeId,
  currency: "XTR",
  ...(refundedAt ? { refundedAt } : {}),
});

async function check(ledger: ChargeLedger) {
  const result = await checkChargesAccounted(db, ledger);
  expect(result.violations).toBe(result.examples.length);
  return result.examples;
}

describe("every charge accounted for", () => {
  it("accepts a delivered order, a refund of a paid order and a refunded charge without an order", async () => {
    await payment("paid", "CAPTURED", "PAID");
    await payment("shipped", "CAPTURED", "SHIPPED");
    await payment("delivered", "CAPTURED", "DELIVERED");
    await payment("refunded", "REFUNDED", "REFUNDED");
    await payment("orphan", "REFUNDED", null);
    const examples = await check({
      charges: [
        stars("paid"),
        stars("shipped"),
        stars("delivered"),
        stars("refunded", 1),
        stars("orphan", 2),
      ],
      refundCalls: [
        { chargeId: "refunded", ok: true },
        // A retry after a lost answer: Telegram refuses it (CHARGE_ALREADY_REFUNDED).
        { chargeId: "refunded", ok: false },
        { chargeId: "orphan", ok: true },
      ],
    });
    expect(examples).toEqual([]);
  });

  it("catches a charge recorded nowhere", async () => {
    expect(await check({ charges: [stars("lost")], refundCalls: [] })).toEqual([
      "lost (XTR): charged, recorded nowhere",
    ]);
  });

  it("catches a charge refunded twice", async () => {
    await payment("twice", "REFUNDED", "REFUNDED");
    const twice = { chargeId: "twice", ok: true };
    expect(await check({ charges: [stars("twice", 1)], refundCalls: [twice, twice] })).toEqual([
      "twice: refunded 2 times",
    ]);
  });

  it("catches a captured payment whose order was neither delivered nor refunded", async () => {
    await payment("kept", "CAPTURED", "CANCELLED");
    expect(await check({ charges: [stars("kept")], refundCalls: [] })).toEqual([
      "kept: payment CAPTURED, order CANCELLED: captured, neither delivered nor refunded",
    ]);
  });

  it("catches a refund on one side only", async () => {
    await payment("tg-only", "CAPTURED", "PAID");
    await payment("shop-only", "REFUNDED", null);
    expect(
      await check({ charges: [stars("tg-only", 1), stars("shop-only")], refundCalls: [] }),
    ).toEqual([
      "tg-only: payment CAPTURED, order PAID, yet Telegram refunded it",
      "shop-only: payment REFUNDED, order none, but Telegram never refunded the charge",
    ]);
  });

  it("accepts another currency's refund marked by a person, not an unattributed one", async () => {
    await payment("by-hand", "REFUNDED", "REFUNDED", { currency: "USD", refundedBy: "op:**42" });
    await payment("unattributed", "REFUNDED", "REFUNDED", { currency: "USD" });
    const usd = (chargeId: string) => ({ chargeId, currency: "USD" });
    expect(
      await check({ charges: [usd("by-hand"), usd("unattributed")], refundCalls: [] }),
    ).toEqual([
      "unattributed: payment REFUNDED, order REFUNDED, but Telegram never refunded the charge",
    ]);
  });

  it("lets a queued Stars refund be pending only while the run settles", async () => {
    await payment("queued", "REFUND_PENDING", null);
    await queueRefund("queued");
    await payment("forgotten", "REFUND_PENDING", "CANCELLED");
    const charges = [stars("queued"), stars("forgotten")];
    expect(await check({ charges, refundCalls: [], settling: true })).toEqual([
      "forgotten: payment REFUND_PENDING, order CANCELLED: refund still pending, not queued",
    ]);
    expect(await check({ charges, refundCalls: [] })).toEqual([
      "queued: payment REFUND_PENDING, order none: refund still pending (queued)",
      "forgotten: payment REFUND_PENDING, order CANCELLED: refund still pending, not queued",
    ]);
  });
});
