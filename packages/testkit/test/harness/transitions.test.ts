import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestDatabase,
  illegalTransitions,
  recordTransitions,
  type TestDatabase,
} from "@orderbot/testkit";

let testDb: TestDatabase;
beforeAll(async () => {
  testDb = await createTestDatabase();
});
afterAll(() => testDb.drop());

describe("recordTransitions and illegalTransitions", () => {
  it("name every status change the given table does not allow, whoever made it", async () => {
    const db = testDb.db;
    await recordTransitions(db);
    const order = await db.order.create({
      data: {
        publicId: "T1",
        userId: 1n,
        chatId: 1n,
        status: "RESERVED",
        totalMinor: 0,
        currency: "XTR",
        expiresAt: new Date(Date.now() + 60_000),
        idempotencyKey: "t1",
      },
    });
    const legal = { RESERVED: ["PAID"], PAID: [] };
    await db.order.update({ where: { id: order.id }, data: { status: "PAID" } });
    expect(await illegalTransitions(db, legal)).toEqual([]);
    await db.order.update({ where: { id: order.id }, data: { status: "RESERVED" } });
    await db.order.update({ where: { id: order.id }, data: { status: "PAID" } });
    await db.order.update({ where: { id: order.id }, data: { status: "RESERVED" } });
    expect(await illegalTransitions(db, legal)).toEqual(["PAID -> RESERVED (2)"]);
  });
});
