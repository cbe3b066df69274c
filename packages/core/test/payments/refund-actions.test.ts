// What operators do from /refunds: send a refused Stars refund again, and mark a refund made
// outside the bot as done (who, when, a note). Neither can refund or record a refund twice.
import { describe, expect, it } from "vitest";
import { addProduct, paymentFor, placed, unique, user } from "../support/fixtures.ts";
import { useShopHarness } from "../support/shop.ts";
import { MASK_KEY } from "../support/shop.ts";
import { maskId } from "@orderbot/platform";
import { ownerActor } from "../../src/rights/index.ts";

const h = useShopHarness();

const OPERATOR = user(800);

/** A payment owed back: a second payment for an order paid already. */
async function owed(currency: string): Promise<string> {
  const p = await addProduct(h.db, { stock: 3, currency, priceMinor: 500 });
  const order = await placed(h.shop, user(60), [{ sku: p.sku, quantity: 1 }]);
  await h.shop.payments.confirmPayment(paymentFor(order));
  const second = paymentFor(order);
  expect((await h.shop.payments.confirmPayment(second)).status).toBe("refund-pending");
  return second.telegramChargeId;
}

const call = (charge: string) =>
  h.db.outboxMessage.findUniqueOrThrow({ where: { dedupeKey: `refund:${charge}` } });
const payment = (charge: string) =>
  h.db.payment.findUniqueOrThrow({ where: { telegramChargeId: charge } });

describe("retryRefund", () => {
  it("sets a refused Stars refund call back to PENDING, once, and never makes a second call row", async () => {
    const charge = await owed("XTR");
    const { id } = await call(charge);
    // While the call is on its way there is nothing to retry.
    expect(
      await h.shop.payments.retryRefund({ telegramChargeId: charge }, ownerActor(OPERATOR)),
    ).toEqual({
      status: "waiting",
      telegramChargeId: charge,
    });
    await h.db.outboxMessage.update({
      where: { id },
      data: { status: "DEAD", attempts: 1, lastError: "400: Bad Request: CHARGE_ID_INVALID" },
    });
    const { sections } = await h.shop.payments.moneyExceptions({ limit: 50 });
    expect(sections[0]!.refunds.find((r) => r.telegramChargeId === charge)?.state).toEqual({
      kind: "refused",
      error: "400: Bad Request: CHARGE_ID_INVALID",
    });

    const { paymentId } = { paymentId: (await payment(charge)).id };
    const twice = await Promise.all([
      h.shop.payments.retryRefund({ paymentId }, ownerActor(OPERATOR)),
      h.shop.payments.retryRefund({ paymentId }, ownerActor(OPERATOR)),
    ]);
    expect(twice.map((r) => r.status).sort()).toEqual(["ok", "waiting"]);
    expect(await call(charge)).toMatchObject({
      id,
      status: "PENDING",
      attempts: 0,
      lastError: null,
    });
    expect(
      await h.db.outboxMessage.count({ where: { dedupeKey: { startsWith: `refund:${charge}` } } }),
    ).toBe(1);
  });

  it("queues the call of a Stars refund that has none, and refuses what is not a Stars refund owed", async () => {
    const charge = await owed("XTR");
    await h.db.outboxMessage.deleteMany({ where: { dedupeKey: `refund:${charge}` } });
    expect(
      await h.shop.payments.retryRefund({ telegramChargeId: charge }, ownerActor(OPERATOR)),
    ).toEqual({
      status: "ok",
      telegramChargeId: charge,
    });
    expect((await call(charge)).status).toBe("PENDING");

    const usd = await owed("USD");
    expect(
      await h.shop.payments.retryRefund({ telegramChargeId: usd }, ownerActor(OPERATOR)),
    ).toEqual({
      status: "not-stars",
    });
    expect(
      await h.shop.payments.retryRefund({ telegramChargeId: "nope" }, ownerActor(OPERATOR)),
    ).toEqual({
      status: "not-found",
    });
    expect(
      (await h.shop.payments.retryRefund({ paymentId: -1 }, ownerActor(OPERATOR))).status,
    ).toBe("invalid");
    await h.shop.payments.markRefunded(charge);
    expect(
      await h.shop.payments.retryRefund({ telegramChargeId: charge }, ownerActor(OPERATOR)),
    ).toMatchObject({ status: "already-refunded" });
  });
});

describe("markRefundedByHand", () => {
  it("records who, when and the note, once; a second operator is told it was done", async () => {
    const charge = await owed("USD");
    const results = await Promise.all([
      h.shop.payments.markRefundedByHand({
        ref: { telegramChargeId: charge },
        actor: ownerActor(OPERATOR),
        note: "  refunded in the provider dashboard  ",
      }),
      h.shop.payments.markRefundedByHand({
        ref: { telegramChargeId: charge },
        actor: ownerActor(user(801)),
      }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(["already-refunded", "ok"]);
    const row = await payment(charge);
    expect(row.status).toBe("REFUNDED");
    expect(row.refundedAt).toEqual(h.clock.now());
    const who = results[0]!.status === "ok" ? OPERATOR : user(801);
    expect(row.refundedBy).toBe(`op:${maskId(who, MASK_KEY)}`);
    if (who === OPERATOR) expect(row.refundNote).toBe("refunded in the provider dashboard");
    expect(results.find((r) => r.status === "already-refunded")).toMatchObject({
      refundedBy: row.refundedBy,
    });
    const { sections } = await h.shop.payments.moneyExceptions({ limit: 50 });
    expect(sections[0]!.refunds.some((r) => r.telegramChargeId === charge)).toBe(false);
  });

  it("refuses a payment that is not owed, an unknown one, and a note that is too long, changing nothing", async () => {
    const p = await addProduct(h.db, { stock: 1 });
    const order = await placed(h.shop, user(61), [{ sku: p.sku, quantity: 1 }]);
    const paid = paymentFor(order);
    await h.shop.payments.confirmPayment(paid);
    const ref = { telegramChargeId: paid.telegramChargeId };
    expect(await h.shop.payments.markRefundedByHand({ ref, actor: ownerActor(OPERATOR) })).toEqual({
      status: "not-owed",
    });
    expect((await payment(paid.telegramChargeId)).status).toBe("CAPTURED");
    expect(
      await h.shop.payments.markRefundedByHand({
        ref: { telegramChargeId: unique("none") },
        actor: ownerActor(OPERATOR),
      }),
    ).toEqual({ status: "not-found" });
    const charge = await owed("USD");
    expect(
      (
        await h.shop.payments.markRefundedByHand({
          ref: { telegramChargeId: charge },
          actor: ownerActor(OPERATOR),
          note: "x".repeat(501),
        })
      ).status,
    ).toBe("invalid");
    expect((await payment(charge)).status).toBe("REFUND_PENDING");
  });
});
