// Real concurrent clients: several shop instances (each its own PostgreSQL pool, Redis connection
// and lock manager, like separate bot replicas) hammering one database and one Redis.
import { beforeAll, describe, expect, it } from "vitest";
import { reserveOrder, type PlaceOrderResult } from "../../src/orders/index.ts";
import { placeOrderSchema } from "../../src/orders/place-order-input.ts";
import { addProduct, intent, stockOf, unique, user } from "../support/fixtures.ts";
import { assertInvariants } from "@orderbot/testkit";
import { type Instance, HOARDING_CAP_OFF, useShopHarness } from "../support/shop.ts";

let instances: Instance[];
const CAP = 2;

// A generous wait for a pool connection and for Redis: this machine runs other suites at the same
// time (a 1 s Redis timeout once answered 51 calls "unavailable" in CI), and the point here is
// correctness under contention (load shedding and outages have tests of their own).
const h = useShopHarness({
  config: { maxOpenOrders: CAP, transactionMaxWaitMs: 15_000, ...HOARDING_CAP_OFF },
  poolMax: 10,
  redisCommandTimeoutMs: 10_000,
});
beforeAll(async () => {
  instances = [h.main, ...(await Promise.all([1, 2, 3].map(() => h.instance())))];
});

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

describe("flash sale: 500 concurrent placeOrder calls from 300 users, stock 100", () => {
  it("reserves exactly 100 units, never oversells, keeps the ledger and the cap, and answers every call", async () => {
    const product = await addProduct(h.db, { sku: "FLASH", stock: 100 });
    // Users 0..99 try three times (the cap is 2), users 100..299 once: 500 calls, in random order,
    // spread over four instances, all started at once.
    const calls = shuffle([
      ...Array.from({ length: 300 }, (_, i) => i % 100),
      ...Array.from({ length: 200 }, (_, i) => 100 + i),
    ]);
    const settled = await Promise.allSettled(
      calls.map((u, i) =>
        instances[i % instances.length]!.shop.orders.placeOrder({
          userId: user(1000 + u),
          chatId: user(1000 + u),
          items: [{ sku: product.sku, quantity: 1 }],
          idempotencyKey: `flash-${i}`,
        }),
      ),
    );

    const rejected = settled.filter((s) => s.status === "rejected");
    expect(rejected.map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
    const results = settled.map((s) => (s as PromiseFulfilledResult<PlaceOrderResult>).value);
    const answers: Record<string, number> = {};
    for (const r of results) answers[r.status] = (answers[r.status] ?? 0) + 1;
    const count = (status: string) => answers[status] ?? 0;
    // Every call got a definite answer of the kinds a flash sale produces.
    expect(
      count("ok") + count("out-of-stock") + count("busy") + count("limit"),
      JSON.stringify(answers),
    ).toBe(500);
    expect(count("ok")).toBe(100);
    expect(count("out-of-stock")).toBeGreaterThan(0);

    expect(await stockOf(h.db, product.sku)).toBe(0);
    const reserved = await h.db.orderItem.aggregate({
      where: { productId: product.id, order: { status: "RESERVED" } },
      _sum: { quantity: true },
    });
    expect(reserved._sum.quantity).toBe(100);
    const perUser = await h.db.order.groupBy({
      by: ["userId"],
      where: { status: { in: ["RESERVED", "PAYING"] } },
      _count: true,
    });
    expect(Math.max(...perUser.map((u) => u._count))).toBeLessThanOrEqual(CAP);
    await assertInvariants(h.db);
  });
});

describe("idempotency", () => {
  it("creates one order for one key sent 20 times at once, and every call returns it", async () => {
    const product = await addProduct(h.db, { stock: 50 });
    const input = intent(user(1), product.sku, 2, "double-tap");
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        instances[i % instances.length]!.shop.orders.placeOrder(input),
      ),
    );
    const ids = new Set(results.map((r) => (r.status === "ok" ? r.order.id : r.status)));
    expect([...ids]).toHaveLength(1);
    expect(results.every((r) => r.status === "ok")).toBe(true);
    expect(results.filter((r) => r.status === "ok" && !r.replayed)).toHaveLength(1);
    expect(await h.db.order.count({ where: { userId: user(1) } })).toBe(1);
    expect(await stockOf(h.db, product.sku)).toBe(48);
  });
});

describe("without any Redis lock, PostgreSQL alone keeps the data correct", () => {
  // reserveOrder is placeOrder's transaction without the checkout lock: what runs when a lease was
  // lost, or what two instances would do if the lock did not exist.
  const schema = placeOrderSchema({ maxLines: 10, maxUnitsPerLine: 10 });
  const valid = (u: bigint, sku: string, key: string) =>
    schema.parse({ userId: u, chatId: u, items: [{ sku, quantity: 1 }], idempotencyKey: key });
  /** `count` reserveOrder calls at once, spread over the instances, the i-th with `input(i)`. */
  const reserveAtOnce = (count: number, input: (i: number) => ReturnType<typeof valid>) =>
    Promise.all(
      Array.from({ length: count }, (_, i) =>
        reserveOrder(instances[i % instances.length]!.shop.deps, input(i)),
      ),
    );

  it("20 concurrent replays of one key: one order (the unique key), all 20 get it", async () => {
    const product = await addProduct(h.db, { stock: 50 });
    const input = valid(user(2), product.sku, unique("lockless"));
    const results = await reserveAtOnce(20, () => input);
    expect(new Set(results.map((r) => (r.status === "ok" ? r.order.id : r.status))).size).toBe(1);
    expect(results.filter((r) => r.status === "ok" && !r.replayed)).toHaveLength(1);
    expect(await stockOf(h.db, product.sku)).toBe(49);
  });

  it("10 concurrent placements of one user: exactly the cap succeed (advisory lock + count)", async () => {
    const product = await addProduct(h.db, { stock: 50 });
    const results = await reserveAtOnce(10, () => valid(user(3), product.sku, unique("cap")));
    expect(results.filter((r) => r.status === "ok")).toHaveLength(CAP);
    expect(results.filter((r) => r.status === "limit")).toHaveLength(10 - CAP);
  });

  it("300 concurrent placements for 100 units: exactly 100 (conditional decrement)", async () => {
    const product = await addProduct(h.db, { stock: 100 });
    const results = await reserveAtOnce(300, (i) =>
      valid(user(5000 + i), product.sku, unique("nolock")),
    );
    expect(results.filter((r) => r.status === "ok")).toHaveLength(100);
    expect(results.filter((r) => r.status !== "ok").every((r) => r.status === "out-of-stock")).toBe(
      true,
    );
    expect(await stockOf(h.db, product.sku)).toBe(0);
    await assertInvariants(h.db);
  });
});
