import { beforeAll, describe, expect, it } from "vitest";
import { addProduct, payable, placed, user } from "../support/fixtures.ts";
import { holdRowLocks, waitForLockWaiters } from "../support/row-locks.ts";
import { useShopHarness } from "../support/shop.ts";
import { LOCK_KINDS } from "../../src/index.ts";

let sku: string;
const h = useShopHarness();
beforeAll(async () => {
  sku = (await addProduct(h.db, { stock: 1_000, priceMinor: 30 })).sku;
});

const GRACE = 5 * 60_000;
const check = (
  order: { id: string; userId: bigint; totalMinor: number; currency: string },
  patch: object = {},
) => h.shop.payments.checkPayable({ ...payable(order), ...patch });

describe("checkPayable (pre-checkout)", () => {
  it("moves RESERVED to PAYING and extends the hold by the payment grace", async () => {
    const order = await placed(h.shop, user(1), [{ sku, quantity: 2 }]);
    const result = await check(order);
    expect(result).toMatchObject({ status: "ok", order: { id: order.id, status: "PAYING" } });
    if (result.status === "ok") {
      // The reservation had 15 min left, more than the grace: the hold is not shortened.
      expect(result.order.expiresAt).toEqual(order.expiresAt);
      expect(result.order.version).toBe(1);
    }
    // Late in the reservation, pre-checkout extends it to now + grace.
    h.clock.advance(14 * 60_000);
    const again = await check(order);
    expect(again).toMatchObject({ status: "ok", order: { status: "PAYING" } });
    if (again.status === "ok")
      expect(again.order.expiresAt.getTime()).toBe(h.clock.now().getTime() + GRACE);
  });

  it("accepts the order id in lower case, as a user may type it", async () => {
    const order = await placed(h.shop, user(2), [{ sku, quantity: 1 }]);
    expect(await check({ ...order, id: order.id.toLowerCase() })).toMatchObject({ status: "ok" });
  });

  it("refuses with a reason to show the user", async () => {
    const order = await placed(h.shop, user(3), [{ sku, quantity: 1 }]);
    expect(await check(order, { amount: order.totalMinor + 1 })).toEqual({
      status: "refused",
      reason: "wrong-amount",
    });
    expect(await check(order, { currency: "USD" })).toEqual({
      status: "refused",
      reason: "wrong-currency",
    });
    // Another customer's order is refused exactly as a missing one.
    expect(await check(order, { userId: user(99) })).toEqual({
      status: "refused",
      reason: "not-found",
    });
    expect(await check(order, { orderId: "ZZZZZZZZ" })).toEqual({
      status: "refused",
      reason: "not-found",
    });
    expect(await check(order, { orderId: "no!" })).toEqual({
      status: "refused",
      reason: "invalid",
    });
    expect(await check(order, { amount: -5 })).toEqual({ status: "refused", reason: "invalid" });
    // None of these changed the order.
    expect((await h.shop.orders.get(order.id))?.status).toBe("RESERVED");

    const cancelled = await placed(h.shop, user(4), [{ sku, quantity: 1 }]);
    expect((await h.shop.orders.cancelOrder(cancelled.id, cancelled.userId)).status).toBe("ok");
    expect(await check(cancelled)).toEqual({ status: "refused", reason: "cancelled" });

    const paid = await placed(h.shop, user(5), [{ sku, quantity: 1 }]);
    expect(
      (
        await h.shop.payments.confirmPayment({
          orderId: paid.id,
          userId: paid.userId,
          telegramChargeId: `c-${paid.id}`,
          amount: paid.totalMinor,
          currency: "XTR",
        })
      ).status,
    ).toBe("ok");
    expect(await check(paid)).toEqual({ status: "refused", reason: "already-paid" });
  });

  it("refuses an order past its expiry, whether or not the worker has expired it yet", async () => {
    const due = await placed(h.shop, user(6), [{ sku, quantity: 1 }]);
    h.clock.advance(15 * 60_000);
    expect(await check(due)).toEqual({ status: "refused", reason: "expired" });
    expect((await h.shop.orders.get(due.id))?.status).toBe("RESERVED");
    await h.shop.orders.expireDue(h.clock.now());
    expect(await check(due)).toEqual({ status: "refused", reason: "expired" });
  });

  it("answers within its deadline when the order's row is locked elsewhere, and changes nothing", async () => {
    const order = await placed(h.shop, user(7), [{ sku, quantity: 1 }]);
    const blocker = await holdRowLocks(
      h.db,
      `SELECT id FROM orders WHERE public_id = '${order.id}' FOR UPDATE`,
    );
    const checking = check(order, { deadlineMs: 300 });
    await waitForLockWaiters(h.db);
    expect(await checking).toEqual({ status: "refused", reason: "timeout" });
    await blocker.finish();
    expect(await h.shop.orders.get(order.id)).toMatchObject({ status: "RESERVED", version: 0 });
  });

  it("refuses 'busy' at once when no database connection frees up in time, rather than leave Telegram unanswered", async () => {
    const orders = await Promise.all(
      [30, 31, 32, 33, 34, 35].map((n) => placed(h.shop, user(n), [{ sku, quantity: 1 }])),
    );
    const tight = await h.instance({ poolMax: 1, config: { transactionMaxWaitMs: 10 } });
    const results = await Promise.all(
      orders.map((o) =>
        tight.shop.payments.checkPayable({
          orderId: o.id,
          userId: o.userId,
          amount: o.totalMinor,
          currency: o.currency,
        }),
      ),
    );
    const busy = results.filter((r) => r.status === "refused" && r.reason === "busy").length;
    expect(busy).toBeGreaterThan(0);
    expect(busy + results.filter((r) => r.status === "ok").length).toBe(6);
    const paying = await h.db.order.count({
      where: { publicId: { in: orders.map((o) => o.id) }, status: "PAYING" },
    });
    expect(paying).toBe(6 - busy);
  });

  it("refuses 'busy' when another instance holds the order past the lock wait, 'timeout' past the deadline", async () => {
    const order = await placed(h.shop, user(8), [{ sku, quantity: 1 }]);
    const lease = await h.main.locks.acquire({ kind: "order", id: order.id }, { ttlMs: 5_000 });
    expect(lease.ok).toBe(true);
    const shortWait = await h.instance({
      kinds: { ...LOCK_KINDS, order: { ...LOCK_KINDS.order, waitMs: 100 } },
    });
    expect(await shortWait.shop.payments.checkPayable(payable(order))).toEqual({
      status: "refused",
      reason: "busy",
    });
    expect(await check(order, { deadlineMs: 200 })).toEqual({
      status: "refused",
      reason: "timeout",
    });
    if (lease.ok) await lease.lease.release();
    expect(await check(order)).toMatchObject({ status: "ok" });
  });

  it("counts the deadline from when the query arrived: one held up past it is declined at once, writing nothing", async () => {
    const order = await placed(h.shop, user(9), [{ sku, quantity: 1 }]);
    // The update waited 9 s (a saturated pool, a slow Redis) before the check was called.
    expect(await check(order, { receivedAt: performance.now() - 9_000 })).toEqual({
      status: "refused",
      reason: "timeout",
    });
    expect((await h.shop.orders.get(order.id))?.status).toBe("RESERVED"); // nothing was attempted
    // Held up 1 s: 7 s are left, plenty.
    expect(await check(order, { receivedAt: performance.now() - 1_000 })).toMatchObject({
      status: "ok",
    });
    // A time in the future is bad input.
    expect(await check(order, { receivedAt: performance.now() + 60_000 })).toEqual({
      status: "refused",
      reason: "invalid",
    });
  });
});
