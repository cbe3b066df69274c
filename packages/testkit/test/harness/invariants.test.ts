import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "@orderbot/db";
import {
  checkInvariants,
  createTestDatabase,
  type InvariantResult,
  type TestDatabase,
} from "@orderbot/testkit";

let testDb: TestDatabase;
let db: Database;

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = testDb.db;
});
afterAll(() => testDb.drop());

const inputs = { expirySlackMs: 5_000, paymentGraceMs: 60_000, outboxDrained: true };
let n = 0;

/** A consistent little shop: a product with its seed row and one order in the given state. */
async function shop(status: "RESERVED" | "PAID" | "CANCELLED") {
  n++;
  const product = await db.product.create({
    data: {
      sku: `SKU-${n}`,
      titleEn: "t",
      titleZh: "t",
      priceMinor: 10,
      currency: "XTR",
      // 8 once the order's line takes its 2 units at COMMIT (trigger "Order_line_takes_stock").
      stock: 10,
    },
  });
  await db.stockMovement.create({
    data: { productId: product.id, batchId: `seed-${n}`, delta: 10, reason: "SEED" },
  });
  const order = await db.order.create({
    data: {
      publicId: `P${n}`,
      userId: 1n,
      chatId: 1n,
      status,
      totalMinor: 20,
      currency: "XTR",
      expiresAt: new Date(Date.now() + 60_000),
      idempotencyKey: `k${n}`,
      items: { create: { productId: product.id, quantity: 2, unitPriceMinor: 10 } },
    },
  });
  await db.stockMovement.create({
    data: { productId: product.id, orderId: order.id, delta: -2, reason: "RESERVE" },
  });
  if (status === "CANCELLED") {
    await db.stockMovement.create({
      data: { productId: product.id, orderId: order.id, delta: 2, reason: "RELEASE" },
    });
    await db.product.update({ where: { id: product.id }, data: { stock: 10 } });
  }
  if (status === "PAID") {
    await db.payment.create({
      data: {
        orderId: order.id,
        userId: 1n,
        telegramChargeId: `ch-${n}`,
        amountMinor: 20,
        currency: "XTR",
        status: "CAPTURED",
      },
    });
  }
  if (status !== "RESERVED") await timelineMove(order.id, "RESERVED", status);
  return { product, order };
}

type Status = "RESERVED" | "PAID" | "CANCELLED" | "REFUNDED";

/** The timeline move core writes with every status change. */
async function timelineMove(orderId: number, fromStatus: Status, toStatus: Status) {
  await db.orderTimelineEntry.create({ data: { orderId, fromStatus, toStatus, actor: "test" } });
}

/** A status change the way core makes one: the order's status and its timeline move. */
async function moveTo(orderId: number, fromStatus: Status, toStatus: Status) {
  await db.order.update({ where: { id: orderId }, data: { status: toStatus } });
  await timelineMove(orderId, fromStatus, toStatus);
}

const MONEY_SUM_CHECK =
  "captured payments sum to the totals of paid orders (those refunded after shipping left out)";

const failing = (results: InvariantResult[]) => results.filter((r) => !r.ok).map((r) => r.name);

beforeEach(async () => {
  await db.$executeRawUnsafe(
    "TRUNCATE payments, stock_movements, order_items, orders, products, outbox_messages, events RESTART IDENTITY CASCADE",
  );
});

describe("checkInvariants", () => {
  it("passes a consistent shop", async () => {
    await shop("RESERVED");
    await shop("PAID");
    await shop("CANCELLED");
    const results = await checkInvariants(db, {
      ...inputs,
      telegram: { chargeIds: ["ch-2"], refundedChargeIds: [] },
    });
    expect(failing(results)).toEqual([]);
    expect(results.length).toBeGreaterThanOrEqual(7);
  });

  it("catches stock changed without a ledger row (an oversell that skipped the ledger)", async () => {
    const { product } = await shop("RESERVED");
    await db.product.update({ where: { id: product.id }, data: { stock: { decrement: 1 } } });
    expect(failing(await checkInvariants(db, inputs))).toEqual([
      "stock equals the ledger sum and is >= 0",
    ]);
  });

  it("catches a cancelled order whose stock never came back", async () => {
    const { product, order } = await shop("RESERVED");
    await moveTo(order.id, "RESERVED", "CANCELLED");
    expect((await db.product.findUniqueOrThrow({ where: { id: product.id } })).stock).toBe(8);
    expect(failing(await checkInvariants(db, inputs))).toEqual([
      "each order's stock is held exactly while it is open or paid",
    ]);
  });

  it("catches a paid order without its payment, and a payment Telegram never sent", async () => {
    const { order } = await shop("RESERVED");
    await moveTo(order.id, "RESERVED", "PAID");
    const results = await checkInvariants(db, {
      ...inputs,
      telegram: { chargeIds: ["ghost"], refundedChargeIds: [] },
    });
    expect(failing(results)).toEqual([
      "each paid order has exactly one captured payment, and nothing else has one",
      MONEY_SUM_CHECK,
      "each successful_payment maps to exactly one Payment row",
    ]);
  });

  it("catches an oversell that the ledger recorded faithfully (only the CHECK constraint would stop it)", async () => {
    const { product } = await shop("RESERVED");
    // This test database only: without the constraint, and without the lines' trigger that takes
    // their units conditionally, an unconditional decrement can go below zero.
    await db.$executeRawUnsafe(`ALTER TABLE products DROP CONSTRAINT products_stock_non_negative`);
    await db.$executeRawUnsafe(`ALTER TABLE order_items DISABLE TRIGGER "Order_line_takes_stock"`);
    try {
      const order = await db.order.create({
        data: {
          publicId: "OVER",
          userId: 2n,
          chatId: 2n,
          status: "PAID",
          totalMinor: 90,
          currency: "XTR",
          expiresAt: new Date(Date.now() + 60_000),
          idempotencyKey: "over",
          items: { create: { productId: product.id, quantity: 9, unitPriceMinor: 10 } },
        },
      });
      await db.stockMovement.create({
        data: { productId: product.id, orderId: order.id, delta: -9, reason: "RESERVE" },
      });
      await timelineMove(order.id, "RESERVED", "PAID");
      await db.product.update({ where: { id: product.id }, data: { stock: { decrement: 9 } } });
      // Its fall recorded a stock.low event, which no relay expands here.
      await db.$executeRawUnsafe(`DELETE FROM events`);
      await db.payment.create({
        data: {
          orderId: order.id,
          userId: 2n,
          telegramChargeId: "over",
          amountMinor: 90,
          currency: "XTR",
          status: "CAPTURED",
        },
      });
      expect(failing(await checkInvariants(db, inputs))).toEqual([
        "stock equals the ledger sum and is >= 0",
        "no product is oversold: units held by orders never exceed units supplied",
      ]);
    } finally {
      await db.$executeRawUnsafe(
        `TRUNCATE payments, stock_movements, order_items, orders, products RESTART IDENTITY CASCADE`,
      );
      await db.$executeRawUnsafe(
        `ALTER TABLE products ADD CONSTRAINT products_stock_non_negative CHECK (stock >= 0)`,
      );
      await db.$executeRawUnsafe(`ALTER TABLE order_items ENABLE TRIGGER "Order_line_takes_stock"`);
    }
  });

  it("catches an order whose total is not the sum of its items", async () => {
    const { order } = await shop("RESERVED");
    await db.order.update({ where: { id: order.id }, data: { totalMinor: 19 } });
    expect(failing(await checkInvariants(db, inputs))).toEqual([
      "every order is well-formed: in a known state, with items, its total their sum",
    ]);
  });

  it("catches a reservation left past its expiry, a pending outbox message and a double refund", async () => {
    const { order } = await shop("PAID");
    await shop("RESERVED").then(({ order: o }) =>
      db.order.update({ where: { id: o.id }, data: { expiresAt: new Date(Date.now() - 60_000) } }),
    );
    await db.payment.updateMany({ where: { orderId: order.id }, data: { status: "REFUNDED" } });
    await moveTo(order.id, "PAID", "REFUNDED");
    await db.stockMovement.create({
      data: { productId: 1, orderId: order.id, delta: 2, reason: "RESTOCK" },
    });
    await db.product.update({ where: { id: 1 }, data: { stock: { increment: 2 } } });
    await db.outboxMessage.create({
      data: { dedupeKey: "x", chatId: 1n, method: "sendMessage", payload: {} },
    });
    const results = await checkInvariants(db, {
      ...inputs,
      telegram: { chargeIds: [`ch-${n - 1}`], refundedChargeIds: [`ch-${n - 1}`, `ch-${n - 1}`] },
    });
    expect(failing(results)).toEqual([
      "no reservation is left past its expiry (plus grace)",
      "the outbox delivered everything that is not dead",
      "refunds were issued for exactly the payments to refund",
    ]);
  });

  it("takes a refund made outside the bot (Telegram's own) for a refund, and checks the charges", async () => {
    const { order } = await shop("PAID");
    const charge = `ch-${n}`;
    await db.payment.updateMany({
      where: { orderId: order.id },
      data: { status: "REFUNDED", refundedBy: "telegram" },
    });
    await moveTo(order.id, "PAID", "REFUNDED");
    await db.stockMovement.create({
      data: { productId: 1, orderId: order.id, delta: 2, reason: "RESTOCK" },
    });
    await db.product.update({ where: { id: 1 }, data: { stock: { increment: 2 } } });
    const telegram = { chargeIds: [charge], refundedChargeIds: [] };
    const refunded = { chargeId: charge, currency: "XTR", refundedAt: Date.now() };
    const accounted = { charges: [refunded], refundCalls: [] };
    expect(failing(await checkInvariants(db, { ...inputs, telegram, charges: accounted }))).toEqual(
      [],
    );
    // Telegram's ledger says the buyer still paid: then the REFUNDED row is not true.
    const charged = { charges: [{ chargeId: charge, currency: "XTR" }], refundCalls: [] };
    await db.payment.updateMany({ where: { orderId: order.id }, data: { refundedBy: null } });
    expect(failing(await checkInvariants(db, { ...inputs, telegram, charges: charged }))).toEqual([
      "refunds were issued for exactly the payments to refund",
      "every charge is accounted for: a paid order or refunded once, none refunded twice",
    ]);
  });
});

describe("checkInvariants: fulfilment", () => {
  const SHIPPED_CHECK =
    "every shipped or delivered order was paid, got there by a recorded move, and was never refunded without a timeline entry";
  const NOTICE_CHECK =
    "one status notice per order and status: each fulfilment move queued one, nothing else did";

  /** A paid order shipped the way core ships one: the move in the timeline, the notice queued. */
  async function shipped(options: { move?: boolean; notice?: boolean } = {}) {
    const { order } = await shop("PAID");
    await db.order.update({ where: { id: order.id }, data: { status: "SHIPPED" } });
    if (options.move !== false)
      await db.orderTimelineEntry.create({
        data: { orderId: order.id, fromStatus: "PAID", toStatus: "SHIPPED", actor: "op:x" },
      });
    // The notice as this release records it: an `order.moved` event, told already.
    if (options.notice !== false)
      await db.event.create({
        data: {
          kind: "order.moved",
          dedupeKey: `order.moved:${order.publicId}:SHIPPED`,
          deliveryKey: `status:${order.publicId}:SHIPPED`,
          payload: { kind: "order.moved", orderId: order.publicId, status: "SHIPPED", note: "" },
          expandedAt: new Date(),
        },
      });
    return order;
  }

  it("passes a shipped order, and one refunded after shipping with its timeline entry", async () => {
    await shipped();
    const refunded = await shipped();
    await db.payment.updateMany({ where: { orderId: refunded.id }, data: { status: "REFUNDED" } });
    await db.orderTimelineEntry.create({
      data: {
        orderId: refunded.id,
        event: "refund",
        fromStatus: "SHIPPED",
        toStatus: "SHIPPED",
        actor: "op:x",
        note: "lost in the post",
      },
    });
    expect(failing(await checkInvariants(db, inputs))).toEqual([]);
  });

  it("catches a shipped order refunded without a timeline entry", async () => {
    const order = await shipped();
    await db.payment.updateMany({ where: { orderId: order.id }, data: { status: "REFUNDED" } });
    expect(failing(await checkInvariants(db, inputs))).toEqual([
      "each paid order has exactly one captured payment, and nothing else has one",
      SHIPPED_CHECK,
      MONEY_SUM_CHECK,
    ]);
  });

  it("catches a shipped order that was never paid, and one that got there without a move", async () => {
    const { order } = await shop("RESERVED");
    await db.order.update({ where: { id: order.id }, data: { status: "SHIPPED" } });
    await shipped({ move: false, notice: false });
    const results = await checkInvariants(db, inputs);
    expect(failing(results)).toContain(SHIPPED_CHECK);
    expect(results.find((r) => r.name === SHIPPED_CHECK)?.violations).toBe(2);
  });

  it("catches a move without its notice, and a notice without its move (of the previous release)", async () => {
    await shipped({ notice: false });
    await db.outboxMessage.create({
      data: {
        dedupeKey: "status:NOSUCH:DELIVERED",
        chatId: 1n,
        method: "notify",
        payload: {},
        status: "SENT",
      },
    });
    const results = await checkInvariants(db, inputs);
    expect(failing(results)).toEqual([NOTICE_CHECK]);
    expect(results.find((r) => r.name === NOTICE_CHECK)?.violations).toBe(2);
  });
});

describe("checkInvariants: every move in the timeline, the money summed", () => {
  it("catches an order that changed status without its timeline move", async () => {
    const { order } = await shop("CANCELLED");
    await db.orderTimelineEntry.deleteMany({ where: { orderId: order.id } });
    expect(failing(await checkInvariants(db, inputs))).toEqual([
      "every order that moved ends where its last timeline move took it",
    ]);
  });

  it("catches money captured for an order whose total it leaves out as refunded", async () => {
    // Each row agrees (one captured payment of the order's total), yet the sums do not.
    const { order } = await shop("PAID");
    await db.orderTimelineEntry.create({
      data: {
        orderId: order.id,
        event: "refund",
        fromStatus: "PAID",
        toStatus: "PAID",
        actor: "x",
        note: "goodwill",
      },
    });
    expect(failing(await checkInvariants(db, inputs))).toEqual([MONEY_SUM_CHECK]);
  });
});
