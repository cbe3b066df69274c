import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "@orderbot/db";
import { maskId, createLogger } from "@orderbot/platform";
import { createShop, type Shop } from "../src/index.ts";
import { addProduct, paymentFor, user } from "./support/fixtures.ts";
import { MASK_KEY, useShopHarness } from "./support/shop.ts";
import { ownerActor } from "../src/rights/index.ts";

const h = useShopHarness();
let shop: Shop;
let lines = "";
beforeAll(async () => {
  const out = new PassThrough();
  out.on("data", (chunk: Buffer) => (lines += chunk.toString()));
  const logger = createLogger({ level: "trace", destination: out });
  shop = createShop({
    db: createDatabase({ url: h.testDb.url, poolMax: 4 }),
    locks: h.main.locks,
    clock: h.clock,
    logger,
    config: { maskKey: MASK_KEY },
  });
});
afterAll(() => shop.deps.db.$disconnect());

describe("logs", () => {
  it("never carry a user's id unmasked, only its keyed hash", async () => {
    const customer = user(4242);
    const operator = user(4343);
    const group = -1_004_000_000_001n;
    const p = await addProduct(h.db, { stock: 10, priceMinor: 20 });
    await shop.groups.bind({ chatId: group, title: "Ops", boundBy: operator });
    const placed = await shop.orders.placeOrder({
      userId: customer,
      chatId: customer,
      items: [{ sku: p.sku, quantity: 1 }],
      idempotencyKey: "k1",
    });
    if (placed.status !== "ok") throw new Error("placeOrder failed");
    await shop.orders.placeOrder({
      userId: customer,
      chatId: customer,
      items: [{ sku: "NOPE", quantity: 1 }],
      idempotencyKey: "k2",
    });
    await shop.payments.confirmPayment(paymentFor(placed.order));
    await shop.payments.confirmPayment(paymentFor(placed.order)); // a second payment: refund path
    await shop.payments.refundOrder(placed.order.id, ownerActor(operator));
    await shop.stock.adjustStock(p.sku, { op: "add", units: 3 }, ownerActor(operator));
    await shop.stock.setPrice({ sku: p.sku, priceMinor: 25, actor: ownerActor(operator) });
    await shop.groups.updateSettings({
      chatId: group,
      patch: { language: "zh" },
      expectedVersion: 0,
      actor: operator,
    });

    expect(lines.length).toBeGreaterThan(0);
    for (const id of [customer, operator, group]) {
      expect(lines).not.toContain(String(id));
      expect(lines).not.toContain(String(-id));
    }
    expect(lines).toContain(maskId(customer, MASK_KEY));
    expect(lines).toContain(maskId(operator, MASK_KEY));
  });
});
