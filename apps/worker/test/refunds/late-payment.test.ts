// Acceptance: a payment that races an expiry ends REFUND_PENDING → REFUNDED, with
// refundStarPayment called exactly once — here with two workers relaying side by side.
import { setTimeout as sleep } from "node:timers/promises";
import { beforeAll, describe, expect, it } from "vitest";
import type { Shop } from "@orderbot/core";
import type { FakeTelegram, SimulatedUser } from "@orderbot/fake-telegram";
import { confirmCharge, payOnTelegram, reserveFor, startedUser } from "../support/kit.ts";
import { createProduct } from "../support/seed.ts";
import { waitUntil, type InProcessWorker } from "../support/worker.ts";
import { useWorkerShop } from "../support/shop.ts";

const fixture = useWorkerShop({ poolMax: 20 });
const { db } = fixture;
let tg: FakeTelegram;
let shop: Shop;
const workers: InProcessWorker[] = [];

beforeAll(async () => {
  tg = fixture.tg;
  // The bot's side: the order services, with locks of their own.
  shop = await fixture.botShop();
  const env = { OUTBOX_INTERVAL_MS: "100", REFUND_INTERVAL_MS: "300" };
  workers.push(await fixture.startWorker(env), await fixture.startWorker(env));
});

const reserve = (user: SimulatedUser, sku: string) => reserveFor(shop, user, sku);

const makeDue = (publicIds: string[]) =>
  db.$executeRaw`UPDATE orders SET expires_at = timezone('UTC', now()) - interval '1 minute' WHERE public_id = ANY(${publicIds}::text[])`;

const successfulRefundCalls = (chargeId: string) =>
  tg
    .callsTo("refundStarPayment")
    .filter((c) => c.ok && c.params.telegram_payment_charge_id === chargeId).length;

describe("a payment that arrives as its reservation expires", () => {
  it("expired first and sold out: REFUND_PENDING, then refunded by the workers with one refundStarPayment", async () => {
    const product = await createProduct(db, 1);
    const buyer = await startedUser(tg);
    const rival = await startedUser(tg);
    const order = await reserve(buyer, product.sku);
    const chargeId = await payOnTelegram(tg, buyer, order.id, order.totalMinor); // the money is taken; the bot has not heard yet

    await makeDue([order.id]);
    expect(await workers[0]!.worker.runOnce("expire-reservations")).toBe("ran");
    await reserve(rival, product.sku); // the stock that came back is gone again

    const confirmed = await confirmCharge(shop, buyer, order, chargeId);
    expect(confirmed).toMatchObject({ status: "refund-pending", reason: "late-out-of-stock" });

    await waitUntil(
      "the payment refunded",
      async () =>
        (await db.payment.findUniqueOrThrow({ where: { telegramChargeId: chargeId } })).status ===
        "REFUNDED",
      30_000,
    );
    await waitUntil(
      "the outbox and the events' deliveries drained",
      async () => {
        const [left] = await db.$queryRaw<{ n: number }[]>`
          SELECT (SELECT count(*) FROM outbox_messages WHERE status = 'PENDING')
               + (SELECT count(*) FROM deliveries WHERE status = 'PENDING')
               + (SELECT count(*) FROM events WHERE expanded_at IS NULL)::int AS n`;
        return Number(left?.n) === 0;
      },
      30_000,
    );
    expect(successfulRefundCalls(chargeId)).toBe(1);
    expect(
      tg
        .callsTo("refundStarPayment")
        .filter((c) => c.params.telegram_payment_charge_id === chargeId),
    ).toHaveLength(1);
    expect(tg.charges.find((c) => c.chargeId === chargeId)!.refundedAt).toBeDefined();
    const payment = await db.payment.findUniqueOrThrow({ where: { telegramChargeId: chargeId } });
    expect(payment.refundedAt).not.toBeNull();
    expect((await db.order.findUniqueOrThrow({ where: { publicId: order.id } })).status).toBe(
      "EXPIRED",
    );
    // The buyer was told.
    const notice = tg
      .callsTo("sendMessage")
      .find(
        (c) => c.ok && c.chatId === buyer.id && String(c.params.text).includes("refunded in full"),
      );
    expect(notice).toBeDefined();
  });

  it("20 late payments at once, racing the expiry job: paid with stock held, or sold out and refunded exactly once", async () => {
    const cases = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const product = await createProduct(db, 1);
        const buyer = await startedUser(tg);
        const rival = await startedUser(tg);
        const order = await reserve(buyer, product.sku);
        const chargeId = await payOnTelegram(tg, buyer, order.id, order.totalMinor);
        return { product, buyer, rival, order, chargeId, soldOut: i % 2 === 0 };
      }),
    );
    // Half of them expired a moment ago and a rival bought the unit that came back.
    const soldOut = cases.filter((c) => c.soldOut);
    await makeDue(soldOut.map((c) => c.order.id));
    await shop.orders.expireDue(new Date(), 50);
    for (const c of soldOut) await reserve(c.rival, c.product.sku);

    // The other half fall due now. Their expiry (two workers' ticks and a direct call) races every
    // confirmation, each a few ms apart at random; the relays refund whatever must be refunded.
    const racing = cases.filter((c) => !c.soldOut);
    await makeDue(racing.map((c) => c.order.id));
    const jitter = () => sleep(Math.random() * 30);
    const confirmations = await Promise.all([
      ...cases.map((c) => jitter().then(() => confirmCharge(shop, c.buyer, c.order, c.chargeId))),
      workers[0]!.worker.runOnce("expire-reservations"),
      workers[1]!.worker.runOnce("expire-reservations"),
      jitter().then(() => shop.orders.expireDue(new Date(), 3)),
    ]);
    expect(
      confirmations
        .slice(0, cases.length)
        .map((r) => (typeof r === "object" && "status" in r ? r.status : r)),
    ).toEqual(cases.map((c) => (c.soldOut ? "refund-pending" : "ok")));

    const charges = cases.map((c) => c.chargeId);
    await waitUntil(
      "no payment left REFUND_PENDING",
      async () =>
        (await db.payment.count({
          where: { telegramChargeId: { in: charges }, status: "REFUND_PENDING" },
        })) === 0,
      60_000,
    );
    await waitUntil(
      "the outbox drained",
      async () => (await db.outboxMessage.count({ where: { status: "PENDING" } })) === 0,
      60_000,
    );

    for (const c of cases) {
      const order = await db.order.findUniqueOrThrow({
        where: { publicId: c.order.id },
        include: { payments: true },
      });
      const product = await db.product.findUniqueOrThrow({ where: { id: c.product.id } });
      expect(order.payments).toHaveLength(1);
      expect(product.stock).toBe(0); // the unit is held: by the paid order, or by the rival
      const ledger = await db.stockMovement.aggregate({
        where: { productId: c.product.id },
        _sum: { delta: true },
      });
      expect(ledger._sum.delta ?? 0).toBe(product.stock);
      if (c.soldOut) {
        expect([order.status, order.payments[0]!.status]).toEqual(["EXPIRED", "REFUNDED"]);
        expect(successfulRefundCalls(c.chargeId)).toBe(1);
      } else {
        expect([order.status, order.payments[0]!.status]).toEqual(["PAID", "CAPTURED"]);
        expect(successfulRefundCalls(c.chargeId)).toBe(0);
      }
    }
    const refundCalls = tg
      .callsTo("refundStarPayment")
      .filter((c) => charges.includes(String(c.params.telegram_payment_charge_id)));
    expect(refundCalls).toHaveLength(soldOut.length);
    expect(refundCalls.every((c) => c.ok)).toBe(true);
  }, 120_000);
});
