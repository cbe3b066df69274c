// What the database refuses of promo codes and their uses (migration 20261204010000_promo_codes),
// whatever the code that writes them.
import { describe, expect, it } from "vitest";
import { Prisma } from "@orderbot/db";
import { useTestDatabase } from "@orderbot/testkit";

const { db } = useTestDatabase();

let seq = 0;
const USER = 7_123_456_789n;

function code(overrides: Partial<Prisma.PromoCodeUncheckedCreateInput> = {}) {
  return db.promoCode.create({
    data: {
      code: `CODE${++seq}`,
      kind: "PERCENT",
      value: 10,
      totalUses: 5,
      remainingUses: 5,
      createdBy: "op:test",
      ...overrides,
    },
  });
}

async function order() {
  return db.order.create({
    data: {
      publicId: `P${++seq}`,
      userId: USER,
      chatId: USER,
      status: "RESERVED",
      totalMinor: 20,
      currency: "XTR",
      expiresAt: new Date(Date.now() + 60_000),
      idempotencyKey: `key-${seq}`,
    },
  });
}

describe("promo_codes", () => {
  it("refuses a code outside its alphabet, a bad value and an impossible count", async () => {
    for (const bad of [
      { code: "sale" },
      { code: "AB" },
      { code: "-SALE" },
      { code: "SALE 10" },
      { value: 0 },
      { value: 101 },
      { kind: "PERCENT" as const, currency: "XTR" },
      { kind: "FIXED" as const, value: 5 },
      { kind: "FIXED" as const, value: 0, currency: "XTR" },
      { minTotalMinor: -1 },
      { totalUses: 0, remainingUses: 0 },
      { remainingUses: 6 },
      { remainingUses: -1 },
      { perCustomer: 0 },
      { startsAt: new Date("2026-12-02"), endsAt: new Date("2026-12-01") },
    ])
      await expect(code(bad), JSON.stringify(bad)).rejects.toThrow(/check constraint/);
    await expect(code({ kind: "FIXED", value: 500, currency: "USD" })).resolves.toBeDefined();
    const once = await code({ code: "TWICE" });
    await expect(code({ code: "TWICE" })).rejects.toThrow(/Unique constraint|unique/);
    expect(once.code).toBe("TWICE");
  });
});

describe("promo_uses", () => {
  it("holds a customer's slot once among uses not given back, and one use per order", async () => {
    const c = await code({ perCustomer: 2 });
    const [a, b, d] = [await order(), await order(), await order()];
    await db.promoUse.create({ data: { codeId: c.id, userId: USER, slot: 1, orderId: a.id } });
    await expect(
      db.promoUse.create({ data: { codeId: c.id, userId: USER, slot: 1, orderId: b.id } }),
    ).rejects.toThrow(/promo_uses_held_slot_key|Unique constraint/);
    await expect(
      db.promoUse.create({ data: { codeId: c.id, userId: USER, slot: 0, orderId: b.id } }),
    ).rejects.toThrow(/check constraint/);
    await expect(
      db.promoUse.create({ data: { codeId: c.id, userId: USER + 1n, slot: 1, orderId: a.id } }),
    ).rejects.toThrow(/Unique constraint|unique/);
    // Given back, the slot is free again.
    await db.promoUse.update({ where: { orderId: a.id }, data: { returnedAt: new Date() } });
    await db.promoUse.create({ data: { codeId: c.id, userId: USER, slot: 1, orderId: d.id } });
    expect(await db.promoUse.count({ where: { codeId: c.id, returnedAt: null } })).toBe(1);
  });

  it("refuses a discount without a code", async () => {
    const o = await order();
    await expect(
      db.order.update({ where: { id: o.id }, data: { discountMinor: 5 } }),
    ).rejects.toThrow(/orders_discount_check/);
  });
});
