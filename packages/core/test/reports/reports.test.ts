import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedCatalog } from "@orderbot/db";
import { createTestDatabase, type TestDatabase } from "@orderbot/testkit";
import { createReports } from "../../src/index.ts";

let testDb: TestDatabase;
const clock = { now: () => new Date("2026-03-01T10:00:00Z") };

beforeAll(async () => {
  testDb = await createTestDatabase();
  await seedCatalog(testDb.db);
  await testDb.db.product.update({ where: { sku: "POT-YIXING" }, data: { stock: 0 } });
});
afterAll(() => testDb.drop());

describe("reports", () => {
  it("give today's figures on demand", async () => {
    const report = await createReports({ db: testDb.db, clock }).today({ lowStockThreshold: 3 });
    expect(report.day).toBe("2026-03-01");
    expect(report.lowStock).toEqual([{ sku: "POT-YIXING", stock: 0 }]);
  });
});
