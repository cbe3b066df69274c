import { describe, expect, it } from "vitest";
import { useShopHarness } from "../support/shop.ts";
import { addProduct, intent, stockOf, unique, user } from "../support/fixtures.ts";
import { assertInvariants } from "@orderbot/testkit";
import { holdRowLocks, waitForLockWaiters } from "../support/row-locks.ts";
import { PUBLIC_ID_PATTERN } from "../../src/orders/index.ts";

const h = useShopHarness();

const place = (userN: number, items: { sku: string; quantity: number }[], key = unique("key")) =>
  h.shop.orders.placeOrder({
    userId: user(userN),
    chatId: user(userN),
    items,
    idempotencyKey: key,
  });

async function counts() {
  const [orders, movements, items] = await Promise.all([
    h.db.order.count(),
    h.db.stockMovement.count(),
    h.db.orderItem.count(),
  ]);
  return { orders, movements, items };
}

describe("placeOrder", () => {
  it("reserves stock: conditional decrement, the order, its items and RESERVE ledger rows", async () => {
    const a = await addProduct(h.db, { stock: 5, priceMinor: 25 });
    const b = await addProduct(h.db, { stock: 3, priceMinor: 40 });
    const result = await place(1, [
      { sku: b.sku, quantity: 1 },
      { sku: a.sku, quantity: 2 },
    ]);
    expect(result.status).toBe("ok");
    if (result.status !== "ok") return;
    expect(result.replayed).toBe(false);
    expect(result.order).toMatchObject({
      status: "RESERVED",
      totalMinor: 2 * 25 + 40,
      currency: "XTR",
      userId: user(1),
    });
    expect(result.order.id).toMatch(PUBLIC_ID_PATTERN);
    expect(result.order.expiresAt.getTime() - h.clock.now().getTime()).toBe(15 * 60_000);
    expect(result.order.items.map((i) => [i.sku, i.quantity, i.unitPriceMinor])).toEqual([
      [a.sku, 2, 25],
      [b.sku, 1, 40],
    ]);
    expect(await stockOf(h.db, a.sku)).toBe(3);
    expect(await stockOf(h.db, b.sku)).toBe(2);
    const product = await h.db.product.findUniqueOrThrow({ where: { id: a.id } });
    expect(product.version).toBe(1);
    const ledger = await h.db.stockMovement.findMany({
      where: { order: { publicId: result.order.id } },
      orderBy: { productId: "asc" },
    });
    expect(ledger.map((m) => [m.productId, m.delta, m.reason])).toEqual([
      [a.id, -2, "RESERVE"],
      [b.id, -1, "RESERVE"],
    ]);
    const { timeline, ...read } = (await h.shop.orders.get(result.order.id))!;
    expect(read).toEqual(result.order);
    expect(timeline).toEqual([]);
    await assertInvariants(h.db);
  });

  it("returns the same order for a replayed idempotency key, and changes nothing", async () => {
    const p = await addProduct(h.db, { stock: 5 });
    const key = unique("replay");
    const first = await place(2, [{ sku: p.sku, quantity: 1 }], key);
    const before = await counts();
    const second = await place(2, [{ sku: p.sku, quantity: 1 }], key);
    expect(first.status).toBe("ok");
    expect(second).toMatchObject({ status: "ok", replayed: true });
    if (first.status === "ok" && second.status === "ok")
      expect(second.order.id).toBe(first.order.id);
    expect(await counts()).toEqual(before);
    expect(await stockOf(h.db, p.sku)).toBe(4);
  });

  it("scopes idempotency keys per user: another user's identical key is another order", async () => {
    const p = await addProduct(h.db, { stock: 5 });
    const key = unique("shared");
    const mine = await place(3, [{ sku: p.sku, quantity: 1 }], key);
    const theirs = await place(4, [{ sku: p.sku, quantity: 1 }], key);
    expect(mine).toMatchObject({ status: "ok", replayed: false });
    expect(theirs).toMatchObject({ status: "ok", replayed: false });
    if (mine.status === "ok" && theirs.status === "ok")
      expect(theirs.order.id).not.toBe(mine.order.id);
  });

  it("names every short line and changes nothing when stock is short", async () => {
    const a = await addProduct(h.db, { stock: 1 });
    const b = await addProduct(h.db, { stock: 10 });
    const c = await addProduct(h.db, { stock: 0 });
    const before = await counts();
    const result = await place(5, [
      { sku: a.sku, quantity: 2 },
      { sku: b.sku, quantity: 3 },
      { sku: c.sku, quantity: 1 },
    ]);
    expect(result).toEqual({
      status: "out-of-stock",
      short: [
        { sku: a.sku, requested: 2, available: 1 },
        { sku: c.sku, requested: 1, available: 0 },
      ],
    });
    expect(await counts()).toEqual(before);
    expect(await stockOf(h.db, b.sku)).toBe(10);
  });

  it("refuses bad input with one problem per fault, and writes nothing", async () => {
    const p = await addProduct(h.db, { stock: 10 });
    const inactive = await addProduct(h.db, { stock: 10, active: false });
    const before = await counts();
    const cases: [unknown, RegExp][] = [
      [{ items: [] }, /^items min-items 1$/],
      [{ items: [{ sku: p.sku, quantity: 0 }] }, /^items\.0\.quantity min 1$/],
      [{ items: [{ sku: p.sku, quantity: 11 }] }, /^items\.0\.quantity max 10$/],
      [{ items: [{ sku: p.sku, quantity: 1.5 }] }, /^items\.0\.quantity integer $/],
      [{ items: Array.from({ length: 11 }, (_, i) => ({ sku: `X${i}`, quantity: 1 })) }, /items/],
      [
        {
          items: [
            { sku: p.sku, quantity: 1 },
            { sku: p.sku, quantity: 2 },
          ],
        },
        /^items\.1\.sku duplicate \S+$/,
      ],
      [{ items: [{ sku: "NO-SUCH", quantity: 1 }] }, /^items\.0\.sku unknown NO-SUCH$/],
      [{ items: [{ sku: inactive.sku, quantity: 1 }] }, /^items\.0\.sku not-on-sale /],
      [{ items: [{ sku: "bad sku!", quantity: 1 }] }, /^items\.0\.sku format sku$/],
      [
        { items: [{ sku: p.sku, quantity: 1 }], idempotencyKey: "" },
        /^idempotencyKey min-length 1$/,
      ],
      [{ items: [{ sku: p.sku, quantity: 1 }], userId: "abc" }, /^userId /m],
    ];
    for (const [patch, problem] of cases) {
      const input = {
        userId: user(6),
        chatId: user(6),
        idempotencyKey: unique("bad"),
        ...(patch as object),
      };
      const result = await h.shop.orders.placeOrder(input as never);
      expect(result.status, JSON.stringify(patch)).toBe("invalid");
      if (result.status === "invalid")
        expect(
          result.problems.map((x) => `${x.field} ${x.rule} ${x.bound ?? ""}`).join("\n"),
        ).toMatch(problem);
    }
    expect(await counts()).toEqual(before);
  });

  it("refuses products in two currencies in one order", async () => {
    const a = await addProduct(h.db, { stock: 10, currency: "XTR" });
    const b = await addProduct(h.db, { stock: 10, currency: "USD" });
    const result = await place(7, [
      { sku: a.sku, quantity: 1 },
      { sku: b.sku, quantity: 1 },
    ]);
    expect(result).toMatchObject({
      status: "invalid",
      problems: [{ field: "items", rule: "mixed-currencies" }],
    });
  });

  it("refuses an order whose total one invoice cannot ask, and writes nothing", async () => {
    // US$4,000.00 a unit: three are above the US$10,000.00 one invoice may ask.
    const p = await addProduct(h.db, { stock: 10, priceMinor: 400_000, currency: "USD" });
    const before = await counts();
    expect(await place(17, [{ sku: p.sku, quantity: 3 }])).toMatchObject({
      status: "amount-out-of-range",
      amountMinor: 1_200_000,
      maxMinor: 1_000_000,
    });
    expect(await counts()).toEqual(before);
    expect(await stockOf(h.db, p.sku)).toBe(10);
    expect((await place(17, [{ sku: p.sku, quantity: 2 }])).status).toBe("ok"); // US$8,000.00 fits
  });

  it("caps open reservations per user: the next one is 'limit' and changes nothing", async () => {
    const p = await addProduct(h.db, { stock: 10 });
    for (let i = 0; i < 3; i++)
      expect((await place(8, [{ sku: p.sku, quantity: 1 }])).status).toBe("ok");
    const before = await counts();
    expect(await place(8, [{ sku: p.sku, quantity: 1 }])).toEqual({
      status: "limit",
      open: 3,
      max: 3,
    });
    expect(await counts()).toEqual(before);
    expect(await stockOf(h.db, p.sku)).toBe(7);
  });

  it("prices an order again when the price changes while it is being placed", async () => {
    const p = await addProduct(h.db, { stock: 10, priceMinor: 10 });
    // Park the placement at its COMMIT (after it read price 10), where its line takes the units,
    // change the price, let it go: the line's price condition fails, the transaction rolls back
    // and the order is priced again, at 12.
    const blocker = await holdRowLocks(
      h.db,
      `SELECT id FROM products WHERE id = ${p.id} FOR UPDATE`,
    );
    const placing = place(9, [{ sku: p.sku, quantity: 2 }]);
    await waitForLockWaiters(h.db);
    await blocker.finish(
      `UPDATE products SET price_minor = 12, version = version + 1 WHERE id = ${p.id}`,
    );
    expect(await placing).toMatchObject({
      status: "ok",
      order: { totalMinor: 24, items: [{ unitPriceMinor: 12 }] },
    });
    expect(await stockOf(h.db, p.sku)).toBe(8);
  });

  it("names what is left when the stock goes while the order commits, and changes nothing", async () => {
    const a = await addProduct(h.db, { stock: 10 });
    const b = await addProduct(h.db, { stock: 10 });
    // Park the placement at its COMMIT, where its lines take their units; meanwhile another sale
    // leaves 1 of b: the COMMIT fails, the whole order rolls back, and the answer says so.
    const blocker = await holdRowLocks(
      h.db,
      `SELECT id FROM products WHERE id = ${b.id} FOR UPDATE`,
    );
    const before = await counts();
    const placing = place(11, [
      { sku: a.sku, quantity: 2 },
      { sku: b.sku, quantity: 2 },
    ]);
    await waitForLockWaiters(h.db);
    await blocker.finish(
      `WITH sold AS (UPDATE products SET stock = 1, version = version + 1 WHERE id = ${b.id} RETURNING id)
       INSERT INTO stock_movements (product_id, delta, reason, actor) SELECT id, -9, 'ADJUST', 'op' FROM sold`,
    );
    expect(await placing).toEqual({
      status: "out-of-stock",
      short: [{ sku: b.sku, requested: 2, available: 1 }],
    });
    // Only the other sale's ledger row is new.
    expect(await counts()).toEqual({ ...before, movements: before.movements + 1 });
    expect([await stockOf(h.db, a.sku), await stockOf(h.db, b.sku)]).toEqual([10, 1]);
    await assertInvariants(h.db);
  });

  it("answers 'busy' to a second intent of a user whose checkout is in progress", async () => {
    const p = await addProduct(h.db, { stock: 10 });
    const lease = await h.main.locks.acquire({ kind: "checkout", id: user(10) }, { ttlMs: 2_000 });
    expect(lease.ok).toBe(true);
    const before = await counts();
    const fast = await h.instance({ config: { replayWaitMs: 0 } });
    expect(await fast.shop.orders.placeOrder(intent(user(10), p.sku, 1, "k"))).toEqual({
      status: "busy",
    });
    // With a replay wait, it waits for the holder and, finding no order for its key, still says busy.
    const waiting = place(10, [{ sku: p.sku, quantity: 1 }]);
    if (lease.ok) setTimeout(() => void lease.lease.release(), 100).unref();
    expect(await waiting).toEqual({ status: "busy" });
    expect(await counts()).toEqual(before);
  });

  it("sheds load as 'busy' when no database connection frees up within the transaction's maxWait", async () => {
    const p = await addProduct(h.db, { stock: 100 });
    const tight = await h.instance({ poolMax: 1, config: { transactionMaxWaitMs: 10 } });
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        tight.shop.orders.placeOrder(intent(user(20 + i), p.sku, 1, "shed")),
      ),
    );
    const busy = results.filter((r) => r.status === "busy").length;
    const ok = results.filter((r) => r.status === "ok").length;
    expect(busy).toBeGreaterThan(0);
    expect(busy + ok).toBe(6);
    expect(await stockOf(h.db, p.sku)).toBe(100 - ok);
    await assertInvariants(h.db);
  });

  it("counts outcomes in orderbot_orders_total", async () => {
    const metrics = await h.main.registry.getSingleMetricAsString("orderbot_orders_total");
    expect(metrics).toMatch(/orderbot_orders_total\{outcome="ok"\} \d+/);
    expect(metrics).toMatch(/orderbot_orders_total\{outcome="out_of_stock"\} \d+/);
    expect(metrics).toMatch(/orderbot_orders_total\{outcome="invalid"\} \d+/);
    expect(metrics).toMatch(/orderbot_orders_total\{outcome="limit"\} 1/);
  });
});
