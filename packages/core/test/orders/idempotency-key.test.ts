// The order idempotency key's home (src/orders/idempotency-key.ts): one intent reserved by several
// shop instances at once, past every Redis lock (reserveOrder, the database half), makes one
// order, and every racer answers with it. The same race with the unique index dropped makes one
// order a racer: the check is not vacuous.
import { beforeAll, describe, expect, it } from "vitest";
import { placeOrderSchema } from "../../src/orders/place-order-input.ts";
import { reserveOrder, type PlaceOrderResult } from "../../src/orders/reserve.ts";
import { addProduct, intent, user } from "../support/fixtures.ts";
import { type Instance, useShopHarness } from "../support/shop.ts";

const RACERS = 8;
const h = useShopHarness({ config: { maxOpenOrders: RACERS + 1 } });
let instances: Instance[];
beforeAll(async () => {
  instances = await Promise.all([0, 1, 2, 3].map(() => h.instance()));
});

/** RACERS reservations of one intent, spread over the instances, all at once. */
async function race(userId: bigint, tag: string): Promise<PlaceOrderResult[]> {
  const product = await addProduct(h.db, { stock: 100 });
  const input = placeOrderSchema(h.shop.deps.config).parse(intent(userId, product.sku, 1, tag));
  return Promise.all(
    Array.from({ length: RACERS }, (_, i) => reserveOrder(instances[i % 4]!.shop.deps, input)),
  );
}

const orderIds = (results: PlaceOrderResult[]) =>
  results.map((r) => (r.status === "ok" ? r.order.id : r.status));

describe("one intent reserved by 8 racers on 4 instances", () => {
  it("makes one order, and every racer answers with it", async () => {
    const results = await race(user(1), "key-on");
    const [first] = orderIds(results);
    expect(orderIds(results)).toEqual(Array.from({ length: RACERS }, () => first));
    expect(results.filter((r) => r.status === "ok" && !r.replayed)).toHaveLength(1);
    expect(await h.db.order.count({ where: { userId: user(1) } })).toBe(1);
  });

  it("makes one order a racer without the unique index, and the index comes back", async () => {
    await h.db.$executeRaw`DROP INDEX orders_idempotency_key_key`;
    const results = await race(user(2), "key-off");
    expect(new Set(orderIds(results)).size).toBe(RACERS);
    expect(await h.db.order.count({ where: { userId: user(2) } })).toBe(RACERS);
    // The duplicates get keys of their own, so that the index can be built again.
    await h.db.$executeRaw`
      UPDATE orders SET idempotency_key = idempotency_key || ':' || id WHERE user_id = ${user(2)}`;
    await h.db
      .$executeRaw`CREATE UNIQUE INDEX orders_idempotency_key_key ON orders(idempotency_key)`;
    await race(user(3), "key-back");
    expect(await h.db.order.count({ where: { userId: user(3) } })).toBe(1);
  });
});
