// 100 customers pay at once for a digital product whose stock says 100 but whose pool holds 60
// codes (an operator raised the stock by hand after loading them). Payments go through three shop
// instances (own pools, Redis connections and lock managers), as separate bot processes would.
import { beforeAll, describe, expect, it } from "vitest";
import { addProduct, paymentFor, placed, stockOf, user } from "../support/fixtures.ts";
import { assertInvariants } from "@orderbot/testkit";
import { type Instance, useShopHarness } from "../support/shop.ts";
import { ownerActor } from "../../src/rights/index.ts";

let instances: Instance[];
// 100 transactions queue for 36 connections: on a busy machine some wait past the 2 s default
// for a transaction, and past the harness's 10 s for a pool connection.
const h = useShopHarness({
  poolMax: 12,
  connectTimeoutMs: 30_000,
  config: { maxOpenOrders: 1_000, transactionMaxWaitMs: 30_000, transactionTimeoutMs: 30_000 },
});
beforeAll(async () => {
  instances = [h.main, ...(await Promise.all([1, 2].map(() => h.instance({ poolMax: 12 }))))];
});

const OPERATOR = 9_000_000_001n;
const CODES = 60;
const CUSTOMERS = 100;

describe("a pool that runs short at payment time", () => {
  it("gives 60 orders one distinct code each and refunds the other 40, the ledger intact", async () => {
    const product = await addProduct(h.db, { stock: 0, sku: "GIFT-CARD" });
    const codes = Array.from({ length: CODES }, (_, i) => `CODE-${String(i).padStart(4, "0")}`);
    const loaded = await h.shop.delivery.loadCodes({
      sku: product.sku,
      text: codes.join("\n"),
      batchId: "codes:test:1",
      actor: OPERATOR,
    });
    expect(loaded).toMatchObject({ status: "ok", added: CODES });
    // The pool edited behind the reservations' back: 40 units nobody has a code for.
    expect(
      await h.shop.stock.adjustStock(
        product.sku,
        { op: "add", units: CUSTOMERS - CODES },
        ownerActor(OPERATOR),
      ),
    ).toMatchObject({ status: "ok" });
    expect(await stockOf(h.db, product.sku)).toBe(CUSTOMERS);

    const orders = [];
    for (let i = 0; i < CUSTOMERS; i++)
      orders.push(await placed(h.shop, user(i), [{ sku: product.sku, quantity: 1 }]));
    expect(await stockOf(h.db, product.sku)).toBe(0);

    const results = await Promise.all(
      orders.map((order, i) =>
        instances[i % instances.length]!.shop.payments.confirmPayment(paymentFor(order)),
      ),
    );

    const ok = results.filter((r) => r.status === "ok");
    const refunded = results.filter((r) => r.status === "refund-pending");
    expect(ok).toHaveLength(CODES);
    expect(refunded).toHaveLength(CUSTOMERS - CODES);
    for (const r of refunded) expect(r).toMatchObject({ reason: "pool-short" });

    // Every code given once, each paid order exactly its quantity, nothing to an unpaid one.
    const items = await h.db.digitalItem.findMany({ include: { order: true } });
    expect(items).toHaveLength(CODES);
    expect(items.every((item) => item.order?.status === "PAID" && item.assignedAt)).toBe(true);
    expect(new Set(items.map((item) => item.orderId)).size).toBe(CODES);
    const paidIds = new Set(ok.map((r) => (r.status === "ok" ? r.order.id : "")));
    expect(new Set(items.map((item) => item.order!.publicId))).toEqual(paidIds);

    // Each paid order's codes queued for sending once, all 60 distinct.
    const deliveries = await h.db.outboxMessage.findMany({
      where: { dedupeKey: { startsWith: "delivery:" } },
    });
    expect(deliveries).toHaveLength(CODES);
    const sent = deliveries.map((m) => (m.payload as { params: { codes: string } }).params.codes);
    expect(new Set(sent).size).toBe(CODES);
    expect([...sent].sort()).toEqual(codes);

    // The other 40: recorded as paid money, put up for refund, its refund call queued.
    const payments = await h.db.payment.findMany();
    expect(payments).toHaveLength(CUSTOMERS);
    expect(payments.filter((p) => p.status === "CAPTURED")).toHaveLength(CODES);
    const pending = payments.filter((p) => p.status === "REFUND_PENDING");
    expect(pending).toHaveLength(CUSTOMERS - CODES);
    const refundCalls = await h.db.outboxMessage.findMany({
      where: { method: "refundStarPayment" },
    });
    expect(new Set(refundCalls.map((m) => m.dedupeKey))).toEqual(
      new Set(pending.map((p) => `refund:${p.telegramChargeId}`)),
    );
    // Their orders stay open (they expire and release their units as any reservation does).
    const unpaid = await h.db.order.findMany({ where: { status: { not: "PAID" } } });
    expect(unpaid).toHaveLength(CUSTOMERS - CODES);
    expect(unpaid.every((o) => o.status === "RESERVED")).toBe(true);

    await assertInvariants(h.db);
  });
});
