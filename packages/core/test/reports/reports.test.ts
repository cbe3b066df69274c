import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedCatalog } from "@orderbot/db";
import { createTestDatabase, type TestDatabase } from "@orderbot/testkit";
import { createReports } from "../../src/index.ts";
import { dayBounds, reportQueries } from "../../src/reports/daily-report.ts";

let testDb: TestDatabase;
const clock = { now: () => new Date("2026-03-01T10:00:00Z") };

/** Orders of a status created (and last updated) at `at`, UTC wall-clock as Prisma stores it. */
async function ordersAt(status: string, at: string, count: number, tag: string) {
  await testDb.db.$executeRawUnsafe(
    `INSERT INTO orders (public_id, user_id, chat_id, status, total_minor, currency, expires_at,
                         idempotency_key, created_at, updated_at)
     SELECT '${tag}' || i, 7100000000 + i, 7100000000 + i, '${status}', 100, 'XTR', $1::timestamp,
            'report-${tag}-' || i, $1::timestamp, $1::timestamp
       FROM generate_series(1, ${count}) AS i`,
    at,
  );
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  await seedCatalog(testDb.db);
  await testDb.db.product.update({ where: { sku: "POT-YIXING" }, data: { stock: 0 } });
  await ordersAt("RESERVED", "2026-03-01 09:00:00", 3, "T");
  await ordersAt("CANCELLED", "2026-03-01 08:00:00", 2, "C");
  // Outside the day: before it, and just at its end.
  await ordersAt("RESERVED", "2026-02-20 09:00:00", 5, "O");
  await ordersAt("EXPIRED", "2026-02-28 23:59:59", 4, "E");
  await ordersAt("CANCELLED", "2026-03-02 00:00:00", 6, "N");
});
afterAll(() => testDb.drop());

describe("reports", () => {
  it("give today's figures on demand, counting only the day's orders", async () => {
    const report = await createReports({ db: testDb.db, clock }).today({ lowStockThreshold: 3 });
    expect(report.day).toBe("2026-03-01");
    expect(report.lowStock).toEqual([{ sku: "POT-YIXING", stock: 0 }]);
    expect([report.ordersPlaced, report.ordersCancelled, report.ordersExpired]).toEqual([5, 2, 0]);
  });

  it("read every figure through an index, never by scanning a whole table", async () => {
    const [from, to] = dayBounds("2026-03-01");
    for (const [name, query] of Object.entries(reportQueries(from, to))) {
      const plan = await testDb.db.$transaction(async (tx) => {
        // The tables are tiny here, so the planner would scan them anyway: forbid it, and a query
        // with no usable index still shows a Seq Scan.
        await tx.$executeRaw`SET LOCAL enable_seqscan = off`;
        return tx.$queryRawUnsafe<{ "QUERY PLAN": string }[]>(
          `EXPLAIN ${query.text}`,
          ...query.values,
        );
      });
      const text = plan.map((row) => row["QUERY PLAN"]).join("\n");
      expect(text, name).not.toMatch(/Seq Scan/);
    }
  });
});
