import { describe, expect, it } from "vitest";
import type { Database } from "@orderbot/db";
import { addProduct, stockOf, unique, user } from "../support/fixtures.ts";
import { assertInvariants } from "@orderbot/testkit";
import { createShop } from "../../src/index.ts";
import { useShopHarness } from "../support/shop.ts";

const h = useShopHarness({ config: { maxLines: 3, maxUnitsPerLine: 5, maxOrderTotalMinor: 200 } });

const lines = async (u: bigint) =>
  (await h.shop.cart.view(u)).lines.map((l) => [l.product.sku, l.quantity]);

describe("the cart", () => {
  it("sets, changes and removes lines with absolute quantities, and empties", async () => {
    const u = user(1);
    const a = await addProduct(h.db, { stock: 10, priceMinor: 7 });
    const b = await addProduct(h.db, { stock: 10, priceMinor: 3 });
    expect((await h.shop.cart.view(u)).lines).toEqual([]);
    expect(await h.shop.cart.units(u)).toBe(0); // no cart yet
    await h.shop.cart.setQuantity({ userId: u, productId: b.id, quantity: 2 });
    const set = await h.shop.cart.setQuantity({ userId: u, productId: a.id, quantity: 1 });
    expect(set).toMatchObject({ status: "ok", changed: true, cart: { units: 3, totalMinor: 13 } });
    expect(await h.shop.cart.units(u)).toBe(3); // what the catalog's Cart button counts
    // A double tap on "+" sets the same quantity again: nothing changes, not even the revision.
    const again = await h.shop.cart.setQuantity({ userId: u, productId: a.id, quantity: 1 });
    expect(again).toMatchObject({ status: "ok", changed: false });
    if (set.status === "ok" && again.status === "ok")
      expect(again.cart.revision).toBe(set.cart.revision);
    expect(await lines(u)).toEqual([
      [b.sku, 2],
      [a.sku, 1],
    ]);
    await h.shop.cart.setQuantity({ userId: u, productId: b.id, quantity: 0 });
    expect(await lines(u)).toEqual([[a.sku, 1]]);
    expect((await h.shop.cart.clear(u)).lines).toEqual([]);
    expect(await h.shop.cart.units(u)).toBe(0);
    // The cart held no stock at any point.
    expect(await stockOf(h.db, a.sku)).toBe(10);
  });

  it("refuses more lines or units than one order may have, and products not on sale", async () => {
    const u = user(2);
    const ps = await Promise.all([1, 2, 3, 4].map(() => addProduct(h.db, { stock: 10 })));
    for (const p of ps.slice(0, 3))
      await h.shop.cart.setQuantity({ userId: u, productId: p.id, quantity: 1 });
    expect(
      await h.shop.cart.setQuantity({ userId: u, productId: ps[3]!.id, quantity: 1 }),
    ).toMatchObject({ status: "too-many-lines", max: 3 });
    expect(await h.shop.cart.setQuantity({ userId: u, productId: ps[0]!.id, quantity: 6 })).toEqual(
      {
        status: "too-many-units",
        max: 5,
      },
    );
    const off = await addProduct(h.db, { stock: 10, active: false });
    expect(await h.shop.cart.setQuantity({ userId: u, productId: off.id, quantity: 1 })).toEqual({
      status: "not-found",
    });
    expect(
      await h.shop.cart.setQuantity({ userId: u, productId: ps[0]!.id, quantity: -1 }),
    ).toMatchObject({ status: "invalid" });
    expect((await h.shop.cart.view(u)).lines).toHaveLength(3);
  });
});

describe("checkout", () => {
  it("turns the cart into one order of several lines, empties it, and a replay finds that order", async () => {
    const u = user(10);
    const a = await addProduct(h.db, { stock: 10, priceMinor: 10 });
    const b = await addProduct(h.db, { stock: 10, priceMinor: 20 });
    await h.shop.cart.setQuantity({ userId: u, productId: b.id, quantity: 2 });
    await h.shop.cart.setQuantity({ userId: u, productId: a.id, quantity: 3 });
    const { revision } = await h.shop.cart.view(u);
    const input = { userId: u, chatId: u, revision, idempotencyKey: unique("co") };
    // A double tap: two presses at once, one order.
    const [first, second] = await Promise.all([
      h.shop.cart.checkout(input),
      h.shop.cart.checkout(input),
    ]);
    expect(first.status).toBe("ok");
    expect(second.status).toBe("ok");
    if (first.status !== "ok" || second.status !== "ok") return;
    expect(second.order.id).toBe(first.order.id);
    expect(first.order.totalMinor).toBe(70);
    expect(first.order.items.map((i) => [i.sku, i.quantity])).toEqual([
      [a.sku, 3],
      [b.sku, 2],
    ]);
    expect(await lines(u)).toEqual([]);
    // A re-delivered update, after the cart emptied: the same order again.
    expect(await h.shop.cart.checkout(input)).toMatchObject({
      status: "ok",
      replayed: true,
      order: { id: first.order.id },
    });
    expect(await h.db.order.count({ where: { userId: u } })).toBe(1);
    expect([await stockOf(h.db, a.sku), await stockOf(h.db, b.sku)]).toEqual([7, 8]);
    await assertInvariants(h.db);
  });

  it("reserves nothing when a line is short, names every short line, and leaves the cart, which it returns", async () => {
    const u = user(11);
    const a = await addProduct(h.db, { stock: 10 });
    const b = await addProduct(h.db, { stock: 1 });
    const c = await addProduct(h.db, { stock: 0 });
    await h.shop.cart.setQuantity({ userId: u, productId: a.id, quantity: 2 });
    await h.shop.cart.setQuantity({ userId: u, productId: b.id, quantity: 3 });
    await h.shop.cart.setQuantity({ userId: u, productId: c.id, quantity: 1 });
    const before = await h.shop.cart.view(u);
    const result = await h.shop.cart.checkout({
      userId: u,
      chatId: u,
      revision: before.revision,
      idempotencyKey: unique("co"),
    });
    expect(result).toEqual({
      status: "out-of-stock",
      short: [
        { sku: b.sku, requested: 3, available: 1 },
        { sku: c.sku, requested: 1, available: 0 },
      ],
      cart: before, // to show again, without reading it a second time
    });
    expect(await h.shop.cart.view(u)).toEqual(before);
    expect(await stockOf(h.db, a.sku)).toBe(10);
    expect(await h.db.order.count({ where: { userId: u } })).toBe(0);
  });

  it("refuses a cart that changed since the button was drawn, an empty cart, and a total over the limit", async () => {
    const u = user(12);
    const a = await addProduct(h.db, { stock: 10, priceMinor: 10 });
    await h.shop.cart.setQuantity({ userId: u, productId: a.id, quantity: 1 });
    const drawn = await h.shop.cart.view(u);
    await h.shop.cart.setQuantity({ userId: u, productId: a.id, quantity: 2 });
    const changed = await h.shop.cart.checkout({
      userId: u,
      chatId: u,
      revision: drawn.revision,
      idempotencyKey: unique("co"),
    });
    expect(changed).toMatchObject({ status: "cart-changed", cart: { units: 2 } });

    const pricey = await addProduct(h.db, { stock: 10, priceMinor: 150 });
    await h.shop.cart.setQuantity({ userId: u, productId: pricey.id, quantity: 2 });
    const over = await h.shop.cart.checkout({
      userId: u,
      chatId: u,
      revision: (await h.shop.cart.view(u)).revision,
      idempotencyKey: unique("co"),
    });
    expect(over).toMatchObject({ status: "amount-out-of-range", amountMinor: 320, maxMinor: 200 });
    expect(await stockOf(h.db, pricey.sku)).toBe(10);

    await h.shop.cart.clear(u);
    expect(
      await h.shop.cart.checkout({
        userId: u,
        chatId: u,
        revision: 0,
        idempotencyKey: unique("co"),
      }),
    ).toMatchObject({ status: "empty", cart: { lines: [] } });
  });

  it("a change between reading the cart and the order's commit rolls the order back", async () => {
    const u = user(13);
    const a = await addProduct(h.db, { stock: 10 });
    await h.shop.cart.setQuantity({ userId: u, productId: a.id, quantity: 1 });
    const { revision } = await h.shop.cart.view(u);
    // placeOrder with the cart's old revision, as checkout would after a concurrent edit.
    await h.shop.cart.setQuantity({ userId: u, productId: a.id, quantity: 2 });
    const result = await h.shop.orders.placeOrder({
      userId: u,
      chatId: u,
      items: [{ sku: a.sku, quantity: 1 }],
      idempotencyKey: unique("co"),
      cartRevision: revision,
    });
    expect(result).toEqual({ status: "cart-changed" });
    expect(await stockOf(h.db, a.sku)).toBe(10);
    expect(await lines(u)).toEqual([[a.sku, 2]]);
  });
});

/** The database, counting the queries made on the products table itself (not through a cart). */
function countingProductQueries(db: Database): { db: Database; count: () => number } {
  let queries = 0;
  const products = new Proxy(db.product, {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        queries++;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  const counted = new Proxy(db, {
    get(target, name) {
      if (name === "product") return products;
      const value: unknown = Reflect.get(target, name, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { db: counted, count: () => queries };
}

describe("a Checkout's reads", () => {
  it("reads each product once, with the cart, and places the order from that read", async () => {
    const u = user(30);
    const a = await addProduct(h.db, { stock: 10, priceMinor: 10 });
    const b = await addProduct(h.db, { stock: 10, priceMinor: 20 });
    await h.shop.cart.setQuantity({ userId: u, productId: a.id, quantity: 1 });
    await h.shop.cart.setQuantity({ userId: u, productId: b.id, quantity: 2 });
    const counting = countingProductQueries(h.db);
    const shop = createShop({
      db: counting.db,
      locks: h.main.locks,
      clock: h.clock,
      config: h.shop.deps.config,
    });
    const result = await shop.cart.checkout({
      userId: u,
      chatId: u,
      revision: (await h.shop.cart.view(u)).revision,
      idempotencyKey: unique("co"),
    });
    expect(result).toMatchObject({ status: "ok", order: { totalMinor: 50 } });
    expect(counting.count()).toBe(0); // the products came with the cart's one read
  });
});
