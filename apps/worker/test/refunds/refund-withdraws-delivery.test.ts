// A digital order paid while the worker is paused, refunded before the worker resumes: its codes,
// revoked by the refund, must never reach the customer, and the refund itself goes out once.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createShop, type Shop } from "@orderbot/core";
import type { Database } from "@orderbot/db";
import { createMetricsRegistry, silentLogger } from "@orderbot/platform";
import {
  createTestDatabase,
  createTestRedis,
  type TestDatabase,
  type TestRedis,
} from "@orderbot/testkit";
import { startFakeTelegram, type FakeTelegram } from "@orderbot/fake-telegram";
import { payOnTelegram, startedUser } from "../support/kit.ts";
import { buildLocks, HASH_KEY } from "../support/locks.ts";
import { createProduct } from "../support/seed.ts";
import { startWorker, waitUntil, type InProcessWorker } from "../support/worker.ts";

let testDb: TestDatabase;
let db: Database;
let t: TestRedis;
let tg: FakeTelegram;
let shop: Shop;
let worker: InProcessWorker;
const closers: (() => Promise<void>)[] = [];
const OPERATOR = 9_000_000_001n;

beforeAll(async () => {
  testDb = await createTestDatabase({ poolMax: 10 });
  db = testDb.db;
  t = await createTestRedis();
  tg = await startFakeTelegram();
  const botLocks = await buildLocks(t.url, t.namespace);
  closers.push(botLocks.close);
  shop = createShop({
    db,
    locks: botLocks.locks,
    config: { maskKey: HASH_KEY },
    logger: silentLogger,
    registry: createMetricsRegistry(),
  });
  const services = {
    databaseUrl: testDb.url,
    redisUrl: t.url,
    namespace: t.namespace,
    apiRoot: tg.apiRoot,
    token: tg.token,
  };
  // Paused: jobs run only when the test says so.
  worker = await startWorker(db, services, {}, { start: false });
});
afterAll(async () => {
  await worker.close();
  for (const close of closers) await close();
  await tg.close();
  await t.cleanup();
  await testDb.drop();
});

describe("an operator's /refund of a digital order whose codes are still queued", () => {
  it("withdraws the delivery: the codes are never sent, the refund goes out once", async () => {
    const product = await createProduct(db, 0);
    const codes = ["WITHDRAWN-CODE-0001", "WITHDRAWN-CODE-0002"];
    const loaded = await shop.delivery.loadCodes({
      sku: product.sku,
      text: codes.join("\n"),
      batchId: randomUUID(),
      actor: OPERATOR,
    });
    expect(loaded.status).toBe("ok");
    const buyer = await startedUser(tg);
    const placed = await shop.orders.placeOrder({
      userId: buyer.id,
      chatId: buyer.id,
      items: [{ sku: product.sku, quantity: 2 }],
      idempotencyKey: randomUUID(),
    });
    if (placed.status !== "ok") throw new Error(`placeOrder: ${placed.status}`);
    const order = placed.order;
    const chargeId = await payOnTelegram(tg, buyer, order.id, order.totalMinor);
    const paid = await shop.payments.confirmPayment({
      orderId: order.id,
      userId: buyer.id,
      telegramChargeId: chargeId,
      amount: order.totalMinor,
      currency: order.currency,
    });
    expect(paid).toMatchObject({ status: "ok", codesSent: true });
    expect(
      await db.outboxMessage.count({
        where: { dedupeKey: { startsWith: `delivery:${order.id}:` } },
      }),
    ).toBe(1);

    const refunded = await shop.payments.refundOrder(order.id, OPERATOR, {
      reason: "changed their mind",
    });
    expect(refunded.status).toBe("ok");

    // The worker resumes and sends everything the shop owes.
    await waitUntil(
      "the outbox to be sent",
      async () => {
        await worker.worker.runOnce("outbox-relay");
        return (await db.outboxMessage.count({ where: { status: "PENDING" } })) === 0;
      },
      60_000,
      50,
    );
    const toBuyer = tg.callsTo("sendMessage").filter((c) => c.chatId === buyer.id);
    expect(toBuyer.length).toBeGreaterThan(0); // the refund notice, at least
    for (const call of toBuyer)
      for (const code of codes) expect(String(call.params.text)).not.toContain(code);
    const refundCalls = tg
      .callsTo("refundStarPayment")
      .filter((c) => c.ok && c.params.telegram_payment_charge_id === chargeId);
    expect(refundCalls).toHaveLength(1);
  });
});
