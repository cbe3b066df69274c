import { describe, expect, it } from "vitest";
import { LOCK_KINDS } from "../../src/index.ts";
import { addProduct, paymentFor, placed, stockOf, user } from "../support/fixtures.ts";
import { assertInvariants } from "@orderbot/testkit";
import { deliveries } from "../support/deliveries.ts";
import { holdRowLocks } from "../support/row-locks.ts";
import { useShopHarness } from "../support/shop.ts";

const h = useShopHarness({ config: { maxOpenOrders: 1_000 } });

const RESERVATION = 15 * 60_000;
const GRACE = 5 * 60_000;

describe("cancelOrder", () => {
  it("cancels an open order, returns its stock once (RELEASE ledger row), and answers a repeat with the same order", async () => {
    const p = await addProduct(h.db, { stock: 5 });
    const order = await placed(h.shop, user(1), [{ sku: p.sku, quantity: 3 }]);
    const result = await h.shop.orders.cancelOrder(order.id, user(1));
    expect(result).toMatchObject({
      status: "ok",
      replayed: false,
      order: { id: order.id, status: "CANCELLED" },
    });
    expect(await stockOf(h.db, p.sku)).toBe(5);
    expect(await h.shop.orders.cancelOrder(order.id, user(1))).toMatchObject({
      status: "ok",
      replayed: true,
    });
    expect(await stockOf(h.db, p.sku)).toBe(5);
    expect(
      await h.db.stockMovement.count({
        where: { order: { publicId: order.id }, reason: "RELEASE" },
      }),
    ).toBe(1);
    await assertInvariants(h.db);
  });

  it("refuses another user's order, unknown and malformed ids, expired and paid orders", async () => {
    const p = await addProduct(h.db, { stock: 5 });
    const order = await placed(h.shop, user(2), [{ sku: p.sku, quantity: 1 }]);
    expect(await h.shop.orders.cancelOrder(order.id, user(3))).toEqual({ status: "not-found" });
    expect(await h.shop.orders.cancelOrder("ZZZZZZZZ", user(2))).toEqual({ status: "not-found" });
    expect((await h.shop.orders.cancelOrder("x", user(2))).status).toBe("invalid");

    const paid = await placed(h.shop, user(2), [{ sku: p.sku, quantity: 1 }]);
    await h.shop.payments.confirmPayment(paymentFor(paid));
    expect(await h.shop.orders.cancelOrder(paid.id, user(2))).toEqual({
      status: "conflict",
      current: "PAID",
    });

    h.clock.advance(RESERVATION);
    await h.shop.orders.expireDue(h.clock.now());
    expect(await h.shop.orders.cancelOrder(order.id, user(2))).toEqual({ status: "expired" });
    await assertInvariants(h.db);
  });

  it("answers 'busy' while another instance holds the order beyond the short wait", async () => {
    const p = await addProduct(h.db, { stock: 5 });
    const order = await placed(h.shop, user(4), [{ sku: p.sku, quantity: 1 }]);
    const other = await h.instance({
      kinds: { ...LOCK_KINDS, order: { ...LOCK_KINDS.order, waitMs: 50 } },
    });
    const lease = await h.main.locks.acquire({ kind: "order", id: order.id });
    expect(await other.shop.orders.cancelOrder(order.id, user(4))).toEqual({ status: "busy" });
    if (lease.ok) await lease.lease.release();
    expect((await other.shop.orders.cancelOrder(order.id, user(4))).status).toBe("ok");
  });
});

describe("expireDue", () => {
  it("expires what is due — RESERVED past its expiry, PAYING past expiry + grace — and nothing else", async () => {
    const p = await addProduct(h.db, { stock: 20 });
    h.clock.advance(60 * 60_000);
    const reserved = await placed(h.shop, user(10), [{ sku: p.sku, quantity: 2 }]);
    const paying = await placed(h.shop, user(11), [{ sku: p.sku, quantity: 3 }]);
    await h.shop.payments.checkPayable({
      orderId: paying.id,
      userId: paying.userId,
      amount: paying.totalMinor,
      currency: "XTR",
    });
    const paid = await placed(h.shop, user(12), [{ sku: p.sku, quantity: 1 }]);
    await h.shop.payments.confirmPayment(paymentFor(paid));
    expect(await stockOf(h.db, p.sku)).toBe(14);

    const justBefore = new Date(reserved.expiresAt.getTime() - 1);
    expect(await h.shop.orders.expireDue(justBefore)).toMatchObject({ expired: 0 });

    // At its expiry the RESERVED one goes; the PAYING one (pre-checkout extended nothing: its
    // reservation ran longer than the grace) is still within expiry + grace.
    expect(await h.shop.orders.expireDue(reserved.expiresAt)).toEqual({
      expired: 1,
      releasedUnits: 2,
      notified: 1,
      batches: 1,
    });
    expect((await h.shop.orders.get(reserved.id))?.status).toBe("EXPIRED");
    expect((await h.shop.orders.get(paying.id))?.status).toBe("PAYING");

    const payingDue = new Date(paying.expiresAt.getTime() + GRACE);
    expect(await h.shop.orders.expireDue(new Date(payingDue.getTime() - 1))).toMatchObject({
      expired: 0,
    });
    expect(await h.shop.orders.expireDue(payingDue)).toMatchObject({
      expired: 1,
      releasedUnits: 3,
    });
    expect((await h.shop.orders.get(paid.id))?.status).toBe("PAID");
    expect(await stockOf(h.db, p.sku)).toBe(19);

    // Each customer is told of their own order, and no operator chat is.
    const told = await deliveries(h.db, "expired:", -1_003_000_000_009n);
    expect(
      told.filter((d) => [reserved.id, paying.id].includes(String(d.payload.orderId))),
    ).toEqual(
      [reserved, paying]
        .map((o) => ({
          dedupeKey: `expired:${o.id}:${o === reserved ? user(10) : user(11)}`,
          chatId: o === reserved ? user(10) : user(11),
          kind: "order.expired",
          payload: { kind: "order.expired", orderId: o.id },
        }))
        .sort((a, b) => a.dedupeKey.localeCompare(b.dedupeKey)),
    );
    await assertInvariants(h.db);
  });

  it("works in batches of one short transaction each, aggregating stock per product", async () => {
    const a = await addProduct(h.db, { stock: 100 });
    const b = await addProduct(h.db, { stock: 100 });
    h.clock.advance(60 * 60_000);
    for (let i = 0; i < 7; i++)
      await placed(h.shop, user(100 + i), [
        { sku: a.sku, quantity: 2 },
        { sku: b.sku, quantity: 1 },
      ]);
    const result = await h.shop.orders.expireDue(
      new Date(h.clock.now().getTime() + RESERVATION),
      3,
    );
    expect(result).toEqual({ expired: 7, releasedUnits: 21, notified: 7, batches: 3 });
    expect(await stockOf(h.db, a.sku)).toBe(100);
    expect(await stockOf(h.db, b.sku)).toBe(100);
    await assertInvariants(h.db);
  });

  it("stops between batches when its signal aborts", async () => {
    const p = await addProduct(h.db, { stock: 100 });
    h.clock.advance(60 * 60_000);
    for (let i = 0; i < 4; i++) await placed(h.shop, user(200 + i), [{ sku: p.sku, quantity: 1 }]);
    const controller = new AbortController();
    controller.abort();
    expect(
      await h.shop.orders.expireDue(new Date(h.clock.now().getTime() + RESERVATION), 2, {
        signal: controller.signal,
      }),
    ).toMatchObject({ expired: 0, batches: 0 });
    expect(
      await h.shop.orders.expireDue(new Date(h.clock.now().getTime() + RESERVATION), 2, {
        maxBatches: 1,
      }),
    ).toMatchObject({ expired: 2, batches: 1 });
    expect(
      await h.shop.orders.expireDue(new Date(h.clock.now().getTime() + RESERVATION), 2),
    ).toMatchObject({
      expired: 2,
    });
  });

  it("skips, without waiting, an order someone else has locked", async () => {
    const p = await addProduct(h.db, { stock: 10 });
    h.clock.advance(60 * 60_000);
    const locked = await placed(h.shop, user(300), [{ sku: p.sku, quantity: 1 }]);
    const free = await placed(h.shop, user(301), [{ sku: p.sku, quantity: 1 }]);
    const blocker = await holdRowLocks(
      h.db,
      `SELECT id FROM orders WHERE public_id = '${locked.id}' FOR UPDATE`,
    );
    const due = new Date(h.clock.now().getTime() + RESERVATION);
    expect(await h.shop.orders.expireDue(due)).toMatchObject({ expired: 1 });
    expect((await h.shop.orders.get(free.id))?.status).toBe("EXPIRED");
    expect((await h.shop.orders.get(locked.id))?.status).toBe("RESERVED");
    await blocker.finish();
    expect(await h.shop.orders.expireDue(due)).toMatchObject({ expired: 1 });
    await assertInvariants(h.db);
  });

  it("is safe on four workers at once: every due order expires once, its stock returns once", async () => {
    const products = await Promise.all([0, 1, 2].map(() => addProduct(h.db, { stock: 1_000 })));
    h.clock.advance(60 * 60_000);
    const orders = [];
    for (let i = 0; i < 150; i++) {
      orders.push(
        await placed(h.shop, user(1000 + i), [
          { sku: products[i % 3]!.sku, quantity: 1 + (i % 4) },
          { sku: products[(i + 1) % 3]!.sku, quantity: 1 },
        ]),
      );
    }
    const workers = [h.main, ...(await Promise.all([1, 2, 3].map(() => h.instance())))];
    const due = new Date(h.clock.now().getTime() + RESERVATION);
    const results = await Promise.all(workers.map((w) => w.shop.orders.expireDue(due, 10)));
    expect(results.reduce((sum, r) => sum + r.expired, 0)).toBe(150);
    expect(results.reduce((sum, r) => sum + r.notified, 0)).toBe(150);
    expect(results.reduce((sum, r) => sum + r.releasedUnits, 0)).toBe(
      orders.reduce((sum, o) => sum + o.items.reduce((s, i) => s + i.quantity, 0), 0),
    );
    for (const p of products) expect(await stockOf(h.db, p.sku)).toBe(1_000);
    expect(
      await h.db.order.count({
        where: { publicId: { in: orders.map((o) => o.id) }, status: "EXPIRED" },
      }),
    ).toBe(150);
    await assertInvariants(h.db);
  });
});
