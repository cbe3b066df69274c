// Redis failing under the shop: stopped outright, or a lease lost while its transaction runs.
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRedisServer, type RedisServer } from "@orderbot/testkit";
import { LOCK_KINDS } from "../src/index.ts";
import { type PlaceOrderResult } from "../src/orders/index.ts";
import { OPEN_ORDER_CAP_LOCK } from "../src/orders/reserve.ts";
import {
  addProduct,
  intent,
  paymentFor,
  placed,
  stockOf,
  unique,
  user,
} from "./support/fixtures.ts";
import { assertInvariants } from "@orderbot/testkit";
import { holdRowLocks, waitForLockWaiters } from "./support/row-locks.ts";
import { type Instance, useShopHarness } from "./support/shop.ts";
import { ownerActor } from "../src/rights/index.ts";

const h = useShopHarness({ config: { maxOpenOrders: 1_000 } });

async function snapshot() {
  const [orders, items, movements, payments, outbox, batches, products] = await Promise.all([
    h.db.order.findMany({ orderBy: { id: "asc" } }),
    h.db.orderItem.count(),
    h.db.stockMovement.count(),
    h.db.payment.count(),
    h.db.outboxMessage.count(),
    h.db.stockBatch.count(),
    h.db.product.findMany({
      orderBy: { id: "asc" },
      select: { id: true, stock: true, version: true },
    }),
  ]);
  return { orders, items, movements, payments, outbox, batches, products };
}

describe("Redis stopped", () => {
  let server: RedisServer;
  let shop: Instance;
  beforeAll(async () => {
    server = await startRedisServer();
    shop = await h.instance({ redisUrl: server.url });
  });
  afterAll(() => server.dispose());

  it("refuses what must be refused, writing nothing; records payments exactly once on database guarantees", async () => {
    const p = await addProduct(h.db, { stock: 10 });
    const intentA = intent(user(1), p.sku, 2, "intent");
    const placedA = await shop.shop.orders.placeOrder(intentA);
    if (placedA.status !== "ok") throw new Error("placeOrder failed");
    const a = placedA.order;
    const b = await placed(shop.shop, user(2), [{ sku: p.sku, quantity: 1 }]);
    await server.stop();

    const before = await snapshot();
    const key = unique("down");
    const place = () =>
      shop.shop.orders.placeOrder({
        userId: user(3),
        chatId: user(3),
        items: [{ sku: p.sku, quantity: 1 }],
        idempotencyKey: key,
      });
    expect(await place()).toEqual({ status: "unavailable" });
    expect(await shop.shop.orders.cancelOrder(a.id, user(1))).toEqual({ status: "unavailable" });
    expect(await shop.shop.payments.refundOrder(a.id, ownerActor(user(900)))).toEqual({
      status: "unavailable",
    });
    expect(
      await shop.shop.stock.importBatch({
        batchId: unique("batch"),
        lines: [{ sku: p.sku, quantity: 5 }],
        actor: user(900),
      }),
    ).toEqual({ status: "unavailable" });
    // A replay of an intent already placed is answered from the database, Redis or not.
    expect(await shop.shop.orders.placeOrder(intentA)).toMatchObject({
      status: "ok",
      replayed: true,
      order: { id: a.id },
    });
    expect(await snapshot()).toEqual(before);

    // Money already taken is never dropped: pre-checkout and payment proceed lockless.
    expect(
      await shop.shop.payments.checkPayable({
        orderId: a.id,
        userId: a.userId,
        amount: a.totalMinor,
        currency: "XTR",
      }),
    ).toMatchObject({ status: "ok", order: { status: "PAYING" } });
    const payA = paymentFor(a);
    expect(await shop.shop.payments.confirmPayment(payA)).toMatchObject({
      status: "ok",
      duplicate: false,
      order: { status: "PAID" },
    });
    expect(await shop.shop.payments.confirmPayment(payA)).toMatchObject({
      status: "ok",
      duplicate: true,
    });
    // Telegram re-delivering one payment to several replicas at once, still without Redis.
    const payB = paymentFor(b);
    const others = await Promise.all([
      h.instance({ redisUrl: server.url, redisDown: true }),
      h.instance({ redisUrl: server.url, redisDown: true }),
    ]);
    const results = await Promise.all(
      [shop, ...others, shop, ...others].map((i) => i.shop.payments.confirmPayment(payB)),
    );
    expect(results.filter((r) => r.status === "ok" && !r.duplicate)).toHaveLength(1);
    expect(results.filter((r) => r.status === "ok" && r.duplicate)).toHaveLength(5);
    expect(
      await h.db.payment.count({
        where: { telegramChargeId: { in: [payA.telegramChargeId, payB.telegramChargeId] } },
      }),
    ).toBe(2);

    // Admin lists while Redis is down: a list never fetched is fetched directly (no lock needed
    // for a read from Telegram); a stale one is used as it is.
    const ops = -1_003_000_000_001n;
    await h.shop.groups.bind({ chatId: ops, title: "Ops", boundBy: user(900) });
    const refresh = (fromTelegram: bigint[]) =>
      shop.shop.groups.refreshAdmins(ops, async () => fromTelegram);
    expect(await refresh([user(900)])).toEqual({
      status: "ok",
      adminIds: [user(900)],
      source: "fetched",
    });
    h.clock.advance(11 * 60_000);
    expect(await refresh([user(901)])).toEqual({
      status: "ok",
      adminIds: [user(900)],
      source: "stale-cache",
    });

    // Redis back: checkout works again (once the client reconnects and the breaker closes).
    await server.start();
    let result: PlaceOrderResult = { status: "unavailable" };
    for (let i = 0; i < 100 && result.status === "unavailable"; i++) {
      await sleep(100);
      result = await place();
    }
    expect(result).toMatchObject({ status: "ok", replayed: false });
    expect(await stockOf(h.db, p.sku)).toBe(6);
    await assertInvariants(h.db);
  });
});

describe("lease lost mid-transaction", () => {
  // Short leases, so the watchdog notices a stolen lock quickly (it renews every ttl/3).
  const kinds = {
    ...LOCK_KINDS,
    checkout: { ...LOCK_KINDS.checkout, ttlMs: 1_500 },
    order: { ...LOCK_KINDS.order, ttlMs: 1_500 },
  };
  let shop: Instance;
  beforeAll(async () => {
    shop = await h.instance({ kinds });
  });

  /** Parks the operation's transaction on a row lock, deletes its Redis lock, lets it go. */
  async function loseLeaseWhileParked<T>(
    lockSql: string,
    lockKey: string,
    operation: () => Promise<T>,
  ): Promise<T> {
    const blocker = await holdRowLocks(h.db, lockSql);
    try {
      const lostBefore = await leasesLost();
      const running = operation();
      await waitForLockWaiters(h.db);
      expect(await shop.redis.del(lockKey)).toBe(1); // the lock is gone: expired, failed over, stolen
      // The watchdog's next renewal finds the lock not ours and aborts the lease's signal.
      for (let i = 0; i < 500 && (await leasesLost()) === lostBefore; i++) await sleep(10);
      expect(await leasesLost()).toBe(lostBefore + 1);
      await blocker.finish();
      return await running;
    } finally {
      await blocker.finish();
    }
  }

  async function leasesLost(): Promise<number> {
    const metric = await shop.registry.getSingleMetric("orderbot_lock_renewals_total")?.get();
    return (
      metric?.values
        .filter((v) => v.labels.outcome === "lost")
        .reduce((sum, v) => sum + v.value, 0) ?? 0
    );
  }

  it("rolls placeOrder's transaction back: 'unavailable', nothing written", async () => {
    const p = await addProduct(h.db, { stock: 5 });
    const before = await snapshot();
    // Parked on the user's advisory lock, the transaction's first statement: the lease is checked
    // before the COMMIT. (A lease lost while the COMMIT itself waits on a hot product's row cannot
    // stop it; the reservation is correct without the lock: concurrency.test.ts.)
    const result = await loseLeaseWhileParked(
      `SELECT 1 FROM (SELECT pg_advisory_xact_lock(${OPEN_ORDER_CAP_LOCK}::int, hashtext('${user(10)}'))) parked`,
      shop.locks.keyFor({ kind: "checkout", id: user(10) }),
      () => shop.shop.orders.placeOrder(intent(user(10), p.sku, 2, "lost")),
    );
    expect(result).toEqual({ status: "unavailable" });
    expect(await snapshot()).toEqual(before);
  });

  it("rolls a cancellation back: 'unavailable', the order still open", async () => {
    const p = await addProduct(h.db, { stock: 5 });
    const order = await placed(h.shop, user(11), [{ sku: p.sku, quantity: 1 }]);
    const result = await loseLeaseWhileParked(
      `SELECT id FROM orders WHERE public_id = '${order.id}' FOR UPDATE`,
      shop.locks.keyFor({ kind: "order", id: order.id }),
      () => shop.shop.orders.cancelOrder(order.id, user(11)),
    );
    expect(result).toEqual({ status: "unavailable" });
    expect(await h.shop.orders.get(order.id)).toMatchObject({ status: "RESERVED", version: 0 });
    expect(await stockOf(h.db, p.sku)).toBe(4);
  });

  it("rolls a payment's locked attempt back and records it again on database guarantees: once", async () => {
    const p = await addProduct(h.db, { stock: 5 });
    const order = await placed(h.shop, user(12), [{ sku: p.sku, quantity: 1 }]);
    const payment = paymentFor(order);
    const result = await loseLeaseWhileParked(
      `SELECT id FROM orders WHERE public_id = '${order.id}' FOR UPDATE`,
      shop.locks.keyFor({ kind: "order", id: order.id }),
      () => shop.shop.payments.confirmPayment(payment),
    );
    expect(result).toMatchObject({ status: "ok", duplicate: false, order: { status: "PAID" } });
    expect(
      await h.db.payment.count({ where: { telegramChargeId: payment.telegramChargeId } }),
    ).toBe(1);
    await assertInvariants(h.db);
  });
});
