// Property-based: random sequences of operations, some of them concurrent, from several instances;
// afterwards every invariant of the shop must hold, whatever the interleaving.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { type OrderView } from "../src/index.ts";
import { LEGAL_TRANSITIONS } from "../src/orders/index.ts";
import { addProduct, payable, unique, user } from "./support/fixtures.ts";
import { assertInvariants, illegalTransitions, recordTransitions } from "@orderbot/testkit";
import { type Instance, useShopHarness } from "./support/shop.ts";
import { ownerActor } from "../src/rights/index.ts";
import type { StockChange } from "../src/stock/index.ts";

let clients: Instance[];
let skus: string[];
const h = useShopHarness({ config: { maxOpenOrders: 3 } });
beforeAll(async () => {
  await recordTransitions(h.db);
  clients = [h.main, ...(await Promise.all([1, 2].map(() => h.instance())))];
});

/** Each run starts from the same shop, so a counterexample replays on its own. */
async function freshShop(): Promise<void> {
  await h.db.$executeRawUnsafe(
    "TRUNCATE products, orders, order_items, stock_movements, stock_batches, payments, outbox_messages, events, deliveries, price_changes, test_order_transitions RESTART IDENTITY CASCADE",
  );
  skus = [];
  for (const [i, stock] of [5, 3, 8, 2].entries()) {
    skus.push((await addProduct(h.db, { sku: `P${i}`, stock, priceMinor: 10 + 5 * i })).sku);
  }
}

const USERS = 4;
const client = fc.nat({ max: 2 });
const ref = fc.nat({ max: 1_000 });

// Weighted towards placing and paying, so later operations usually have orders to work on.
const op = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("place" as const),
      client,
      user: fc.nat({ max: USERS - 1 }),
      lines: fc.uniqueArray(
        fc.record({ product: fc.nat({ max: 3 }), quantity: fc.integer({ min: 1, max: 3 }) }),
        { selector: (l) => l.product, minLength: 1, maxLength: 3 },
      ),
      replay: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("cancel" as const),
      client,
      order: ref,
      byOwner: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("check" as const), client, order: ref }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("pay" as const),
      client,
      order: ref,
      duplicate: fc.boolean(),
      wrongAmount: fc.boolean(),
    }),
  },
  fc.record({
    kind: fc.constant("expire" as const),
    client,
    advanceMinutes: fc.constantFrom(0, 6, 16, 25),
  }),
  fc.record({
    kind: fc.constant("adjust" as const),
    client,
    product: fc.nat({ max: 3 }),
    change: fc.constantFrom(
      { op: "add", units: 2 },
      { op: "remove", units: 1 },
      { op: "set", units: 4 },
      { op: "set", units: 0 },
    ) as fc.Arbitrary<StockChange>,
  }),
  fc.record({ kind: fc.constant("refund" as const), client, order: ref }),
  fc.record({ kind: fc.constant("fulfil" as const), client, order: ref }),
  fc.record({
    kind: fc.constant("import" as const),
    client,
    batch: fc.nat({ max: 4 }),
    product: fc.nat({ max: 3 }),
    quantity: fc.integer({ min: 1, max: 4 }),
  }),
);
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

/** Steps run one after another; the ops of a step run at once, on different instances. */
const scenario = fc.array(fc.array(op, { minLength: 1, maxLength: 4 }), {
  minLength: 3,
  maxLength: 15,
});

interface World {
  orders: OrderView[];
  charges: { orderId: string; chargeId: string; userId: bigint; amount: number }[];
  keys: { userId: bigint; key: string }[];
  run: number;
}

async function apply(world: World, o: Op): Promise<string> {
  const shop = clients[o.client]!.shop;
  const pick = <T>(list: T[], n: number) => (list.length === 0 ? undefined : list[n % list.length]);
  switch (o.kind) {
    case "place": {
      const userId = user(world.run * 10 + o.user);
      const previous = o.replay ? world.keys.find((k) => k.userId === userId) : undefined;
      const key = previous?.key ?? unique("prop");
      const result = await shop.orders.placeOrder({
        userId,
        chatId: userId,
        items: o.lines.map((l) => ({ sku: skus[l.product]!, quantity: l.quantity })),
        idempotencyKey: key,
      });
      if (result.status === "ok") {
        if (!result.replayed) world.orders.push(result.order);
        world.keys.push({ userId, key });
      }
      return result.status;
    }
    case "cancel": {
      const order = pick(world.orders, o.order);
      if (!order) return "skip";
      return (await shop.orders.cancelOrder(order.id, o.byOwner ? order.userId : user(999))).status;
    }
    case "check": {
      const order = pick(world.orders, o.order);
      if (!order) return "skip";
      const result = await shop.payments.checkPayable(payable(order));
      return result.status === "ok" ? "ok" : result.reason;
    }
    case "pay": {
      const previous = o.duplicate ? pick(world.charges, o.order) : undefined;
      const order = pick(world.orders, o.order);
      if (!order && !previous) return "skip";
      const charge = previous ?? {
        orderId: order!.id,
        chargeId: unique("charge"),
        userId: order!.userId,
        amount: order!.totalMinor + (o.wrongAmount ? 1 : 0),
      };
      if (!previous) world.charges.push(charge);
      const result = await shop.payments.confirmPayment({
        orderId: charge.orderId,
        userId: charge.userId,
        telegramChargeId: charge.chargeId,
        amount: charge.amount,
        currency: "XTR",
      });
      return result.status;
    }
    case "expire": {
      h.clock.advance(o.advanceMinutes * 60_000);
      return `expired ${(await shop.orders.expireDue(h.clock.now(), 5)).expired}`;
    }
    case "adjust":
      return (await shop.stock.adjustStock(skus[o.product]!, o.change, ownerActor(user(900))))
        .status;
    case "refund": {
      const order = pick(world.orders, o.order);
      return order
        ? (await shop.payments.refundOrder(order.id, ownerActor(user(900)))).status
        : "skip";
    }
    case "fulfil": {
      const order = pick(world.orders, o.order);
      return order
        ? (await shop.fulfilment.advance({ orderId: order.id, to: "DELIVERED", actor: user(900) }))
            .status
        : "skip";
    }
    case "import":
      return (
        await shop.stock.importBatch({
          batchId: `run${world.run}-b${o.batch}`,
          lines: [{ sku: skus[o.product]!, quantity: o.quantity }],
          actor: user(900),
        })
      ).status;
  }
}

describe("property: random operation sequences across three instances", () => {
  it("keep stock = ledger >= 0, only legal transitions, at most one payment per order, money totals agreeing", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(scenario, async (steps) => {
        await freshShop();
        const world: World = { orders: [], charges: [], keys: [], run: ++run };
        for (const step of steps) {
          // Every call returns a definite result; none throws.
          const outcomes = await Promise.all(step.map((o) => apply(world, o)));
          expect(outcomes.every((r) => typeof r === "string")).toBe(true);
        }
        await assertInvariants(h.db);
        expect(await illegalTransitions(h.db, LEGAL_TRANSITIONS)).toEqual([]);
        // No user ever holds more open reservations than the cap.
        const open = await h.db.order.groupBy({
          by: ["userId"],
          where: { status: { in: ["RESERVED", "PAYING"] } },
          _count: true,
        });
        for (const row of open) expect(row._count).toBeLessThanOrEqual(3);
        // Each charge id is recorded at most once.
        const charges = await h.db.payment.groupBy({ by: ["telegramChargeId"], _count: true });
        for (const row of charges) expect(row._count).toBe(1);
      }),
      { numRuns: 25, endOnFailure: false },
    );
  }, 300_000);
});
