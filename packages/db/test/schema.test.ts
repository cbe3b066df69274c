import { describe, expect, it } from "vitest";
import { Prisma, runTransaction, sqlStateOf } from "@orderbot/db";
import { useTestDatabase } from "@orderbot/testkit";
import { rejection } from "./support/rejection.ts";
import { teaProduct, unique } from "./support/rows.ts";

const { db } = useTestDatabase();

const TELEGRAM_USER = 7_123_456_789n; // above 2^32: Telegram ids need BigInt

const product = (stock = 5) => teaProduct(db, { stock });

async function order(overrides: Partial<Prisma.OrderUncheckedCreateInput> = {}) {
  return db.order.create({
    data: {
      publicId: unique("P"),
      userId: TELEGRAM_USER,
      chatId: TELEGRAM_USER,
      status: "RESERVED",
      totalMinor: 20,
      currency: "XTR",
      expiresAt: new Date(Date.now() + 60_000),
      idempotencyKey: unique("idem"),
      ...overrides,
    },
  });
}

describe("schema: every model is writable and readable", () => {
  it("round-trips a product, an order with items, ledger rows, a payment, an update, an outbox message and a group", async () => {
    const p = await product(10);
    const o = await order({ userId: TELEGRAM_USER });
    await db.orderItem.create({
      data: { orderId: o.id, productId: p.id, quantity: 2, unitPriceMinor: 10 },
    });
    await db.stockMovement.create({
      data: { productId: p.id, orderId: o.id, delta: -2, reason: "RESERVE", actor: "user" },
    });
    await db.stockBatch.create({ data: { id: unique("batch"), actor: "op", lines: 1 } });
    await db.payment.create({
      data: {
        orderId: o.id,
        userId: TELEGRAM_USER,
        telegramChargeId: unique("ch"),
        amountMinor: 20,
        currency: "XTR",
        status: "CAPTURED",
      },
    });
    await db.processedUpdate.create({ data: { botId: 1n, updateId: 900_000_000_001n } });
    await db.outboxMessage.create({
      data: {
        dedupeKey: unique("dk"),
        chatId: -1_001_234_567_890n,
        method: "sendMessage",
        payload: { text: "hi" },
      },
    });
    await db.operatorGroup.create({
      data: {
        chatId: -1_001_234_567_890n,
        title: "Ops",
        boundBy: TELEGRAM_USER,
        adminIds: [TELEGRAM_USER, 42n],
        settings: { lowStock: 3 },
      },
    });

    const read = await db.order.findUniqueOrThrow({
      where: { id: o.id },
      include: { items: true, movements: true, payments: true },
    });
    expect(read.userId).toBe(TELEGRAM_USER);
    expect(read.items).toMatchObject([{ productId: p.id, quantity: 2, unitPriceMinor: 10 }]);
    expect(read.movements).toMatchObject([{ delta: -2, reason: "RESERVE" }]);
    expect(read.payments).toMatchObject([{ amountMinor: 20, currency: "XTR", status: "CAPTURED" }]);
    expect(await db.processedUpdate.count({ where: { updateId: 900_000_000_001n } })).toBe(1);
    expect((await db.outboxMessage.findFirstOrThrow()).status).toBe("PENDING");
    const group = await db.operatorGroup.findUniqueOrThrow({
      where: { chatId: -1_001_234_567_890n },
    });
    expect(group.adminIds).toEqual([TELEGRAM_USER, 42n]);
    expect(group.settings).toEqual({ lowStock: 3 });
    expect(group.version).toBe(0);
  });
});

describe("schema: the database refuses what must never happen", () => {
  it("a negative stock (CHECK constraint), even through a raw decrement", async () => {
    const p = await product(2);
    expect(
      await rejection(
        db.product.update({ where: { id: p.id }, data: { stock: { decrement: 3 } } }),
      ),
    ).toMatch(/products_stock_non_negative/);
    expect((await db.product.findUniqueOrThrow({ where: { id: p.id } })).stock).toBe(2);
  });

  it("a duplicate order idempotency key", async () => {
    const key = unique("idem");
    await order({ idempotencyKey: key });
    expect(await rejection(order({ idempotencyKey: key }))).toMatch(/P2002.*idempotency_key/s);
  });

  it("a duplicate Telegram charge id", async () => {
    const o = await order();
    const charge = unique("charge");
    const data = {
      orderId: o.id,
      userId: TELEGRAM_USER,
      amountMinor: 20,
      currency: "XTR",
      status: "REFUND_PENDING" as const,
    };
    await db.payment.create({ data: { ...data, telegramChargeId: charge } });
    expect(
      await rejection(db.payment.create({ data: { ...data, telegramChargeId: charge } })),
    ).toMatch(/P2002.*telegram_charge_id/s);
  });

  it("a second CAPTURED payment for one order", async () => {
    const o = await order();
    const data = { orderId: o.id, userId: TELEGRAM_USER, amountMinor: 20, currency: "XTR" };
    await db.payment.create({
      data: { ...data, telegramChargeId: unique("c"), status: "CAPTURED" },
    });
    expect(
      await rejection(
        db.payment.create({ data: { ...data, telegramChargeId: unique("c"), status: "CAPTURED" } }),
      ),
    ).toMatch(/P2002|payments_one_captured_per_order/);
    // A second payment that is to be refunded is fine: money received is never dropped.
    await db.payment.create({
      data: { ...data, telegramChargeId: unique("c"), status: "REFUND_PENDING" },
    });
  });

  it("a CAPTURED payment without an order, and an operator's refund note past 500 characters", async () => {
    const data = { userId: TELEGRAM_USER, amountMinor: 20, currency: "XTR" };
    // A charge for no order we know is recorded, to be refunded; it can never pay for anything.
    await db.payment.create({
      data: { ...data, telegramChargeId: unique("o"), status: "REFUND_PENDING" },
    });
    expect(
      await rejection(
        db.payment.create({ data: { ...data, telegramChargeId: unique("o"), status: "CAPTURED" } }),
      ),
    ).toMatch(/payments_captured_has_order/);
    expect(
      await rejection(
        db.payment.create({
          data: {
            ...data,
            telegramChargeId: unique("o"),
            status: "REFUNDED",
            refundNote: "x".repeat(501),
          },
        }),
      ),
    ).toMatch(/payments_refund_note_length/);
  });

  it("a second ledger row for the same order, product and reason", async () => {
    const p = await product();
    const o = await order();
    const row = { productId: p.id, orderId: o.id, delta: 1, reason: "RELEASE" as const };
    await db.stockMovement.create({ data: row });
    expect(await rejection(db.stockMovement.create({ data: row }))).toMatch(/P2002/);
  });

  it("a duplicate outbox dedupe key", async () => {
    const key = unique("dedupe");
    const row = { dedupeKey: key, chatId: 1n, method: "sendMessage", payload: {} };
    await db.outboxMessage.create({ data: row });
    expect(await rejection(db.outboxMessage.create({ data: row }))).toMatch(/P2002.*dedupe_key/s);
  });

  it("an event whose payload names another kind, and a second delivery of one event to a chat", async () => {
    const key = unique("event");
    const event = { kind: "stock.low", dedupeKey: key, deliveryKey: key };
    expect(
      await rejection(db.event.create({ data: { ...event, payload: { kind: "order.paid" } } })),
    ).toMatch(/events_kind/);
    const { id } = await db.event.create({ data: { ...event, payload: { kind: "stock.low" } } });
    await db.delivery.create({ data: { eventId: id, chatId: -1n, dedupeKey: `${key}:-1` } });
    expect(
      await rejection(db.delivery.create({ data: { eventId: id, chatId: -1n, dedupeKey: "x" } })),
    ).toMatch(/P2002.*event_id/s);
  });

  it("a second application of one stock batch to a product", async () => {
    const p = await product();
    const row = { productId: p.id, batchId: unique("b"), delta: 5, reason: "IMPORT" as const };
    await db.stockMovement.create({ data: row });
    expect(await rejection(db.stockMovement.create({ data: { ...row, delta: 6 } }))).toMatch(
      /P2002/,
    );
  });

  it("a zero or negative quantity on an order line", async () => {
    const p = await product();
    const o = await order();
    expect(
      await rejection(
        db.orderItem.create({
          data: { orderId: o.id, productId: p.id, quantity: 0, unitPriceMinor: 1 },
        }),
      ),
    ).toMatch(/order_items_quantity_positive/);
  });

  it("a support request text longer than one operator alert can carry", async () => {
    const request = (text: string) =>
      db.supportRequest.create({
        data: { userId: TELEGRAM_USER, chatId: TELEGRAM_USER, topic: "paysupport", text },
      });
    expect((await request("x".repeat(3500))).id).toBeGreaterThan(0);
    expect(await rejection(request("x".repeat(3501)))).toMatch(/support_requests_text_length/);
  });

  it("a second cache epoch: the database has one", async () => {
    expect(await db.cacheEpoch.count()).toBe(1);
    expect(await rejection(db.cacheEpoch.create({ data: { singleton: false } }))).toMatch(
      /cache_epoch_singleton_check/,
    );
    expect(await rejection(db.cacheEpoch.create({ data: {} }))).toMatch(/P2002/);
  });

  it("a digital item loaded twice, a secret out of bounds, an assignment without its time", async () => {
    const p = await product(0);
    const batch = await db.stockBatch.create({
      data: { id: unique("codes"), actor: "op", lines: 1 },
    });
    const item = (secret: string) => ({ productId: p.id, secret, batchId: batch.id });
    await db.digitalItem.create({ data: item("CODE-1") });
    expect(await rejection(db.digitalItem.create({ data: item("CODE-1") }))).toMatch(
      /digital_items_product_id_secret_key/,
    );
    // A long secret is unique too (the key is over its hash: a btree entry could not hold it).
    await db.digitalItem.create({ data: item("x".repeat(3500)) });
    expect(await rejection(db.digitalItem.create({ data: item("x".repeat(3500)) }))).toMatch(
      /digital_items_product_id_secret_key/,
    );
    expect(await rejection(db.digitalItem.create({ data: item("") }))).toMatch(
      /digital_items_secret_check/,
    );
    expect(await rejection(db.digitalItem.create({ data: item("y".repeat(3501)) }))).toMatch(
      /digital_items_secret_check/,
    );
    const o = await order();
    expect(
      await rejection(db.digitalItem.create({ data: { ...item("CODE-2"), orderId: o.id } })),
    ).toMatch(/digital_items_assignment_check/);
  });

  it("a digital item given to a second order, taken back, or un-revoked", async () => {
    const p = await product(0);
    const batch = await db.stockBatch.create({
      data: { id: unique("codes"), actor: "op", lines: 1 },
    });
    const [first, second] = [await order(), await order()];
    const given = await db.digitalItem.create({
      data: {
        productId: p.id,
        secret: "GIVEN",
        batchId: batch.id,
        orderId: first.id,
        assignedAt: new Date(),
      },
    });
    expect(
      await rejection(
        db.digitalItem.update({ where: { id: given.id }, data: { orderId: second.id } }),
      ),
    ).toMatch(/already assigned/);
    expect(
      await rejection(
        db.digitalItem.update({
          where: { id: given.id },
          data: { orderId: null, assignedAt: null },
        }),
      ),
    ).toMatch(/already assigned/);
    await db.digitalItem.update({ where: { id: given.id }, data: { revokedAt: new Date() } });
    expect(
      await rejection(
        db.digitalItem.update({ where: { id: given.id }, data: { revokedAt: null } }),
      ),
    ).toMatch(/is revoked/);
    const removed = await db.digitalItem.create({
      data: { productId: p.id, secret: "REMOVED", batchId: batch.id, revokedAt: new Date() },
    });
    expect(
      await rejection(
        db.digitalItem.update({
          where: { id: removed.id },
          data: { orderId: second.id, assignedAt: new Date() },
        }),
      ),
    ).toMatch(/is revoked/);
  });
});

describe("schema: an order line takes its units as its transaction commits", () => {
  /** One transaction: an order of `quantity` units at `price`, with `share` as the unpaid cap. */
  const place = (productId: number, quantity: number, price = 10, share?: number) =>
    runTransaction(db, async (tx) => {
      if (share !== undefined)
        await tx.$executeRaw`SELECT set_config('orderbot.max_unpaid_share', ${share.toString()}, true)`;
      const o = await tx.order.create({
        data: {
          publicId: unique("T"),
          userId: TELEGRAM_USER,
          chatId: TELEGRAM_USER,
          status: "RESERVED",
          totalMinor: price * quantity,
          currency: "XTR",
          expiresAt: new Date(Date.now() + 60_000),
          idempotencyKey: unique("take"),
          items: { create: { productId, quantity, unitPriceMinor: price } },
        },
      });
      // Inside the transaction the line has taken nothing yet: the trigger is deferred.
      return {
        order: o,
        stockBeforeCommit: (await tx.product.findUniqueOrThrow({ where: { id: productId } })).stock,
      };
    });
  const stockOf = async (id: number) =>
    (await db.product.findUniqueOrThrow({ where: { id } })).stock;
  const sqlState = (write: Promise<unknown>) =>
    write.then(
      () => "committed",
      (error: unknown) => sqlStateOf(error) ?? String(error),
    );

  it("takes the units before the line's foreign keys to the product are checked, at COMMIT too", async () => {
    // Triggers on one row fire in name order: the line's own update must come before PostgreSQL's
    // RI_ConstraintTrigger_*, so that the key checks find the product's row locked by their own
    // transaction (docs/architecture.md, A hot product).
    const triggers = await db.$queryRaw<{ name: string }[]>`
      SELECT tgname AS name FROM pg_trigger WHERE tgrelid = 'order_items'::regclass
       ORDER BY tgname COLLATE "C"`;
    expect(triggers[0]?.name).toBe("Order_line_takes_stock");
    const keys = await db.$queryRaw<{ name: string; deferred: boolean }[]>`
      SELECT conname AS name, condeferrable AND condeferred AS deferred FROM pg_constraint
       WHERE conname IN ('order_items_product_id_fkey', 'stock_movements_product_id_fkey')
       ORDER BY conname`;
    expect(keys).toEqual([
      { name: "order_items_product_id_fkey", deferred: true },
      { name: "stock_movements_product_id_fkey", deferred: true },
    ]);
  });

  it("takes the line's units at COMMIT, with a version bump", async () => {
    const p = await product(5);
    const { stockBeforeCommit } = await place(p.id, 2);
    expect(stockBeforeCommit).toBe(5);
    const after = await db.product.findUniqueOrThrow({ where: { id: p.id } });
    expect([after.stock, after.version]).toEqual([3, p.version + 1]);
  });

  it("refuses, rolling the whole order back, a line its product cannot give: short, repriced or off sale", async () => {
    const p = await product(2);
    const orders = await db.order.count();
    expect(await sqlState(place(p.id, 3))).toBe("OBST1");
    expect(await sqlState(place(p.id, 1, 11))).toBe("OBST1");
    await db.product.update({ where: { id: p.id }, data: { active: false } });
    expect(await sqlState(place(p.id, 1))).toBe("OBST1");
    expect([await stockOf(p.id), await db.order.count()]).toEqual([2, orders]);
  });

  it("refuses a line that takes the unpaid holds past the share the transaction set", async () => {
    const p = await product(4);
    // Half of 4 unsold units: 3 held would be over the cap of 2.
    expect(await sqlState(place(p.id, 3, 10, 0.5))).toBe("OBST2");
    expect(await stockOf(p.id)).toBe(4);
    expect(await sqlState(place(p.id, 2, 10, 0.5))).toBe("committed");
    expect(await sqlState(place(p.id, 1, 10, 0.5))).toBe("OBST2");
    // Without a share set, no cap: the stock alone decides.
    expect(await sqlState(place(p.id, 2))).toBe("committed");
    expect(await stockOf(p.id)).toBe(0);
  });
});
