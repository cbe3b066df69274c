// A flash-sale crowd on a code good for its first N uses: 200 customers check out at once through
// four shop instances (separate pools and lock managers, like bot replicas), each with the code
// applied to their cart. The use is taken in the reservation's transaction by a conditional
// decrement of the code's remaining uses plus a unique slot per customer, so exactly N orders
// carry it, whatever the interleaving; expired and cancelled reservations give their use back
// once, even when the expiry and the cancel race, and the uses given back can be taken again.
import { beforeAll, describe, expect, it } from "vitest";
import { type Shop } from "../../src/index.ts";
import { type CheckoutResult } from "../../src/cart/index.ts";
import { reserveOrder, type PlaceOrderResult } from "../../src/orders/index.ts";
import { addProduct, paymentFor, user } from "../support/fixtures.ts";
import { assertInvariants } from "@orderbot/testkit";
import { type Instance, HOARDING_CAP_OFF, useShopHarness } from "../support/shop.ts";
import { ownerActor } from "../../src/rights/index.ts";

let instances: Instance[];

const h = useShopHarness({
  config: {
    maxOpenOrders: 5,
    transactionMaxWaitMs: 20_000,
    transactionTimeoutMs: 20_000,
    ...HOARDING_CAP_OFF,
  },
  poolMax: 5,
});
beforeAll(async () => {
  instances = await Promise.all([0, 1, 2, 3].map(() => h.instance()));
});

const RESERVATION = 15 * 60_000;

async function codeRow(code: string) {
  return h.db.promoCode.findUniqueOrThrow({ where: { code } });
}

/** Every customer's uses of a code not given back: never more than per_customer each. */
async function heldPerCustomer(codeId: number): Promise<number[]> {
  const rows = await h.db.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM promo_uses WHERE code_id = ${codeId} AND returned_at IS NULL GROUP BY user_id`;
  return rows.map((r) => r.n);
}

/** One cart per customer, one unit of `sku`, with `code` applied. */
async function cartsWithCode(shop: Shop, users: bigint[], productId: number, code: string) {
  const revisions = new Map<bigint, number>();
  for (const u of users) {
    expect(await shop.cart.setQuantity({ userId: u, productId, quantity: 1 })).toMatchObject({
      status: "ok",
    });
    const applied = await shop.promotions.applyToCart({ userId: u, code: code.toLowerCase() });
    expect(applied.status, `code applied for ${u}`).toBe("ok");
    revisions.set(u, (await shop.cart.view(u)).revision);
  }
  return revisions;
}

async function checkoutAll(users: bigint[], revisions: Map<bigint, number>, tag: string) {
  const settled = await Promise.allSettled(
    users.map((u, i) =>
      instances[i % instances.length]!.shop.cart.checkout({
        userId: u,
        chatId: u,
        revision: revisions.get(u)!,
        idempotencyKey: `${tag}-${i}`,
      }),
    ),
  );
  expect(settled.flatMap((s) => (s.status === "rejected" ? [String(s.reason)] : []))).toEqual([]);
  return settled.map((s) => (s as PromiseFulfilledResult<CheckoutResult>).value);
}

describe("a code good for 50 uses, 200 concurrent checkouts", () => {
  it("gives exactly 50 orders the code, gives every expired or cancelled use back once, and lets them be taken again", async () => {
    const product = await addProduct(h.db, { stock: 1_000, priceMinor: 20 });
    expect(
      await h.shop.promotions.create({
        code: "sale",
        kind: "PERCENT",
        value: 10,
        currency: null,
        totalUses: 50,
        actor: ownerActor(user(1)),
      }),
    ).toMatchObject({ status: "ok", code: { code: "SALE", remainingUses: 50 } });
    const code = await codeRow("SALE");

    const crowd = Array.from({ length: 200 }, (_, i) => user(10_000 + i));
    const revisions = await cartsWithCode(h.shop, crowd, product.id, "SALE");
    const results = await checkoutAll(crowd, revisions, "sale");

    const ok = results.flatMap((r) => (r.status === "ok" ? [r.order] : []));
    expect(ok).toHaveLength(50);
    expect(
      results.filter((r) => r.status !== "ok").map((r) => r.status === "promo-refused" && r.reason),
    ).toEqual(Array.from({ length: 150 }, () => "used-up"));
    for (const order of ok) {
      // 10% of 20 ⭐ off, computed on the server: the order's total is what will be charged.
      expect(order.totalMinor).toBe(18);
      expect(order.promo).toMatchObject({ code: "SALE", discountMinor: 2 });
    }
    expect(await h.db.order.count({ where: { promoCodeId: code.id } })).toBe(50);
    expect(await h.db.order.count()).toBe(50); // a refused code reserved nothing
    expect(new Set(ok.map((o) => o.userId)).size).toBe(50);
    expect(Math.max(...(await heldPerCustomer(code.id)))).toBe(1);
    expect((await codeRow("SALE")).remainingUses).toBe(0);
    // A refused customer keeps their cart, code and all; a placed one's cart is empty.
    const refused = crowd.filter((u) => !ok.some((o) => o.userId === u));
    expect((await h.shop.cart.view(refused[0]!)).promo).toMatchObject({ code: "SALE" });
    expect((await h.shop.cart.view(ok[0]!.userId)).lines).toEqual([]);

    // Ten are paid and keep their use; the other 40 run out while 20 of them are being cancelled.
    const paid = ok.slice(0, 10);
    for (const order of paid)
      expect((await h.shop.payments.confirmPayment(paymentFor(order))).status).toBe("ok");
    const open = ok.slice(10);
    h.clock.advance(RESERVATION + 1_000);
    const race = await Promise.allSettled([
      instances[0]!.shop.orders.expireDue(h.clock.now(), 7),
      instances[1]!.shop.orders.expireDue(h.clock.now(), 5),
      ...open
        .slice(0, 20)
        .map((o, i) => instances[(i % 2) + 2]!.shop.orders.cancelOrder(o.id, o.userId)),
    ]);
    expect(race.flatMap((s) => (s.status === "rejected" ? [String(s.reason)] : []))).toEqual([]);
    // Each open order ended expired or cancelled, and gave its use back exactly once.
    const ended = await h.db.order.findMany({
      where: { publicId: { in: open.map((o) => o.id) } },
      include: { promoUse: true },
    });
    for (const order of ended) {
      expect(["EXPIRED", "CANCELLED"]).toContain(order.status);
      expect(order.promoUse?.returnedAt, `use of ${order.publicId}`).not.toBeNull();
    }
    const returned = await h.db.promoUse.count({
      where: { codeId: code.id, returnedAt: { not: null } },
    });
    expect(returned).toBe(40);
    expect((await codeRow("SALE")).remainingUses).toBe(returned);
    // Running the expiry again, or a repeated cancel, gives nothing back twice.
    await h.shop.orders.expireDue(h.clock.now());
    expect(["ok", "expired"]).toContain(
      (await h.shop.orders.cancelOrder(open[0]!.id, open[0]!.userId)).status,
    );
    expect((await codeRow("SALE")).remainingUses).toBe(40);

    // The 40 uses given back go to the next crowd, and no further.
    const second = Array.from({ length: 60 }, (_, i) => user(20_000 + i));
    const again = await checkoutAll(
      second,
      await cartsWithCode(h.shop, second, product.id, "SALE"),
      "again",
    );
    expect(again.filter((r) => r.status === "ok")).toHaveLength(40);
    expect((await codeRow("SALE")).remainingUses).toBe(0);
    expect(await h.db.promoUse.count({ where: { codeId: code.id, returnedAt: null } })).toBe(50);
    expect(Math.max(...(await heldPerCustomer(code.id)))).toBe(1);
    await assertInvariants(h.db);
  });
});

describe("uses per customer", () => {
  it("refuses a customer's third concurrent use of a code good for two each, on the database alone", async () => {
    const product = await addProduct(h.db, { stock: 100, priceMinor: 30 });
    await h.shop.promotions.create({
      code: "TWICE",
      kind: "FIXED",
      value: 5,
      currency: "XTR",
      totalUses: 100,
      perCustomer: 2,
      actor: ownerActor(user(1)),
    });
    const code = await codeRow("TWICE");
    const buyer = user(30_000);
    // reserveOrder is the transaction without the checkout lock in front of it (as with Redis
    // lost): what refuses the third use is the database, not the lock.
    const results: PlaceOrderResult[] = await Promise.all(
      [0, 1, 2].map((i) =>
        reserveOrder(instances[i]!.shop.deps, {
          userId: buyer,
          chatId: buyer,
          items: [{ sku: product.sku, quantity: 1 }],
          idempotencyKey: `twice-${i}`,
          promoCodeId: code.id,
        }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual(["ok", "ok", "promo-refused"]);
    expect(results.find((r) => r.status === "promo-refused")).toMatchObject({
      reason: "used-by-you",
    });
    for (const r of results) if (r.status === "ok") expect(r.order.totalMinor).toBe(25);
    expect(await heldPerCustomer(code.id)).toEqual([2]);
    expect((await codeRow("TWICE")).remainingUses).toBe(98);
    expect(await h.db.order.count({ where: { userId: buyer } })).toBe(2);

    // A cancelled order frees its slot: the customer may use the code again.
    const first = results.find((r) => r.status === "ok")!;
    if (first.status !== "ok") throw new Error("unreachable");
    expect((await h.shop.orders.cancelOrder(first.order.id, buyer)).status).toBe("ok");
    expect((await codeRow("TWICE")).remainingUses).toBe(99);
    const third = await reserveOrder(h.shop.deps, {
      userId: buyer,
      chatId: buyer,
      items: [{ sku: product.sku, quantity: 1 }],
      idempotencyKey: "twice-3",
      promoCodeId: code.id,
    });
    expect(third.status).toBe("ok");
    expect(await heldPerCustomer(code.id)).toEqual([2]);
    await assertInvariants(h.db);
  });
});
