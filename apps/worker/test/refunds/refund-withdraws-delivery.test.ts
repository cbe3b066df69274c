// A digital order paid while the worker is paused, refunded before the worker resumes: its codes,
// revoked by the refund, must never reach the customer, and the refund itself goes out once.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { Shop } from "@orderbot/core";
import type { FakeTelegram } from "@orderbot/fake-telegram";
import { confirmCharge, payOnTelegram, reserveFor, startedUser } from "../support/kit.ts";
import { createProduct } from "../support/seed.ts";
import { useWorkerShop } from "../support/shop.ts";
import { relayAll, type InProcessWorker } from "../support/worker.ts";
import { ownerActor } from "@orderbot/core/rights";

const fixture = useWorkerShop({ poolMax: 10 });
const { db } = fixture;
let tg: FakeTelegram;
let shop: Shop;
let worker: InProcessWorker;
const OPERATOR = 9_000_000_001n;

beforeAll(async () => {
  tg = fixture.tg;
  shop = await fixture.botShop();
  // Paused: jobs run only when the test says so.
  worker = await fixture.startWorker({}, { start: false });
});

describe("an operator's /refund of a digital order whose codes are still queued", () => {
  it("withdraws the delivery: the codes are never sent, the refund goes out once", async () => {
    const product = await createProduct(db, 0);
    // Twice the order: unpaid, it may hold half the pool (the shop's hoarding cap).
    const codes = [1, 2, 3, 4].map((n) => `WITHDRAWN-CODE-000${n}`);
    const loaded = await shop.delivery.loadCodes({
      sku: product.sku,
      text: codes.join("\n"),
      batchId: randomUUID(),
      actor: OPERATOR,
    });
    expect(loaded.status).toBe("ok");
    const buyer = await startedUser(tg);
    const order = await reserveFor(shop, buyer, product.sku, 2);
    const chargeId = await payOnTelegram(tg, buyer, order.id, order.totalMinor);
    const paid = await confirmCharge(shop, buyer, order, chargeId);
    expect(paid).toMatchObject({ status: "ok", codesSent: true });
    expect(
      await db.outboxMessage.count({
        where: { dedupeKey: { startsWith: `delivery:${order.id}:` } },
      }),
    ).toBe(1);

    const refunded = await shop.payments.refundOrder(order.id, ownerActor(OPERATOR), {
      reason: "changed their mind",
    });
    expect(refunded.status).toBe("ok");

    // The worker resumes and sends everything the shop owes.
    await relayAll(worker, db);
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
