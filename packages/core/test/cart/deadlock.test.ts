// 50 customers check out carts over the same few products at once, each cart filled in a random
// order, through four shop instances (separate pools and lock managers, like bot replicas). The
// reservation updates product rows in ascending id order whatever the cart's order, so no two
// checkouts ever wait on each other in a cycle: PostgreSQL reports no deadlock at all, not merely
// none that reached a customer after runTransaction's retries.
import { describe, expect, it } from "vitest";
import type { CartView, CheckoutResult } from "../../src/cart/index.ts";
import { addProduct, user } from "../support/fixtures.ts";
import { assertInvariants } from "@orderbot/testkit";
import { type Instance, useShopHarness } from "../support/shop.ts";
import { ownerActor } from "../../src/rights/index.ts";

const h = useShopHarness({
  config: { maxOpenOrders: 5, transactionMaxWaitMs: 20_000, transactionTimeoutMs: 20_000 },
  poolMax: 5,
});

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

const linesOf = (cart: CartView) => new Map(cart.lines.map((l) => [l.product.sku, l.quantity]));

async function deadlocksSoFar(): Promise<number> {
  const [row] = await h.db.$queryRawUnsafe<{ n: number }[]>(
    `SELECT deadlocks::int AS n FROM pg_stat_database WHERE datname = current_database()`,
  );
  return row!.n;
}

describe("50 concurrent checkouts over overlapping products", () => {
  it("never deadlocks, never oversells, is all or nothing per order, and keeps the ledger", async () => {
    const products = [];
    for (let i = 0; i < 6; i++) products.push(await addProduct(h.db, { stock: 1, priceMinor: 5 }));
    const users = Array.from({ length: 50 }, (_, i) => user(20_000 + i));

    // Each cart: 3 to 5 of the 6 products, 1-3 units each, added in a random order.
    const carts = new Map<bigint, Map<string, number>>();
    for (const u of users) {
      const picked = shuffle([...products]).slice(0, 3 + Math.floor(Math.random() * 3));
      const lines = new Map<string, number>();
      for (const p of picked) {
        const quantity = 1 + Math.floor(Math.random() * 3);
        const set = await h.shop.cart.setQuantity({ userId: u, productId: p.id, quantity });
        expect(set.status).toBe("ok");
        lines.set(p.sku, quantity);
      }
      carts.set(u, lines);
    }
    // Stock for about three quarters of the demand: most checkouts succeed and contend for the
    // same rows, some find a line short.
    const initial = new Map<string, number>();
    for (const p of products) {
      const demand = [...carts.values()].reduce((sum, c) => sum + (c.get(p.sku) ?? 0), 0);
      const stock = Math.floor(demand * 0.75);
      expect(
        await h.shop.stock.adjustStock(p.sku, { op: "set", units: stock }, ownerActor(user(1))),
      ).toMatchObject({
        status: "ok",
      });
      initial.set(p.sku, stock);
    }
    const before = new Map(
      await Promise.all(users.map(async (u) => [u, await h.shop.cart.view(u)] as const)),
    );

    const instances: Instance[] = await Promise.all([0, 1, 2, 3].map(() => h.instance()));
    const deadlocksBefore = await deadlocksSoFar();
    const settled = await Promise.allSettled(
      users.map((u, i) =>
        instances[i % instances.length]!.shop.cart.checkout({
          userId: u,
          chatId: u,
          revision: before.get(u)!.revision,
          idempotencyKey: `checkout-${i}`,
        }),
      ),
    );
    // A backend reports its deadlocks to the statistics when it exits: end the instances' pools.
    for (const instance of instances) await instance.db.$disconnect();

    expect(
      settled.flatMap((s) => (s.status === "rejected" ? [String(s.reason)] : [])),
      "no error (a deadlock, 40P01, among them) reaches a customer",
    ).toEqual([]);
    const results = settled.map((s) => (s as PromiseFulfilledResult<CheckoutResult>).value);
    expect(new Set(results.map((r) => r.status))).toEqual(new Set(["ok", "out-of-stock"]));

    const sold = new Map<string, number>();
    for (const [i, result] of results.entries()) {
      const u = users[i]!;
      const cart = carts.get(u)!;
      const now = await h.shop.cart.view(u);
      if (result.status === "ok") {
        // All: the order holds exactly the cart, and the cart is empty.
        expect(new Map(result.order.items.map((it) => [it.sku, it.quantity]))).toEqual(cart);
        for (const [sku, q] of cart) sold.set(sku, (sold.get(sku) ?? 0) + q);
        expect(now.lines).toEqual([]);
        expect(now.revision).toBe(before.get(u)!.revision + 1);
      } else if (result.status === "out-of-stock") {
        // Nothing: no order, every short line named with what the cart asked, the cart as it was.
        expect(result.short.length).toBeGreaterThan(0);
        for (const line of result.short) {
          expect(line.requested).toBe(cart.get(line.sku));
          expect(line.available).toBeLessThan(line.requested);
        }
        expect(await h.db.order.count({ where: { userId: u } })).toBe(0);
        expect(linesOf(now)).toEqual(cart);
        expect(now.revision).toBe(before.get(u)!.revision);
      }
    }
    for (const p of products) {
      const stock = (await h.db.product.findUniqueOrThrow({ where: { id: p.id } })).stock;
      expect(stock, `stock of ${p.sku}`).toBeGreaterThanOrEqual(0);
      expect(stock + (sold.get(p.sku) ?? 0), `units of ${p.sku}`).toBe(initial.get(p.sku));
    }
    await assertInvariants(h.db);

    await h.db.$executeRawUnsafe(`SELECT pg_stat_clear_snapshot()`);
    expect(await deadlocksSoFar(), "deadlocks PostgreSQL detected").toBe(deadlocksBefore);
  });
});
