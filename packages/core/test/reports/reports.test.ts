import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedCatalog } from "@orderbot/db";
import { createTestDatabase, type TestDatabase } from "@orderbot/testkit";
import { createReports } from "../../src/reports/index.ts";
import { buildDailyReport, dayIn, reportQueries } from "../../src/reports/daily-report.ts";

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
  // Berlin's 2026-03-29 has 23 hours (summer time from 02:00): 23:00 UTC on the 28th to 22:00 UTC.
  await ordersAt("RESERVED", "2026-03-28 22:30:00", 1, "B1"); // 23:30 on the 28th in Berlin
  await ordersAt("RESERVED", "2026-03-28 23:30:00", 2, "B2"); // 00:30 on the 29th
  await ordersAt("RESERVED", "2026-03-29 22:30:00", 4, "B3"); // 00:30 on the 30th (CEST)
});
afterAll(() => testDb.drop());

describe("reports", () => {
  it("give today's figures on demand, counting only the day's orders", async () => {
    const report = await createReports({ db: testDb.db, clock, timeZone: "UTC" }).today({
      lowStockThreshold: 3,
    });
    expect(report.day).toBe("2026-03-01");
    expect(report.lowStock).toEqual([{ sku: "POT-YIXING", stock: 0 }]);
    expect([report.ordersPlaced, report.ordersCancelled, report.ordersExpired]).toEqual([5, 2, 0]);
  });

  it("count the shop's day, midnight to midnight in its time zone, also when it has 23 hours", async () => {
    const day = (d: string, timeZone: string) =>
      buildDailyReport(testDb.db, { day: d, timeZone, lowStockThreshold: 3 });
    // Shanghai's 2026-03-01 began at 16:00 UTC on the 28th: the 4 expired at 23:59 UTC are in it.
    const shanghai = await day("2026-03-01", "Asia/Shanghai");
    expect([shanghai.ordersPlaced, shanghai.ordersCancelled, shanghai.ordersExpired]).toEqual([
      9, 2, 4,
    ]);
    expect(shanghai.timeZone).toBe("Asia/Shanghai");
    expect((await day("2026-03-29", "Europe/Berlin")).ordersPlaced).toBe(2);
    expect((await day("2026-03-30", "Europe/Berlin")).ordersPlaced).toBe(4);
    expect((await day("2026-03-29", "UTC")).ordersPlaced).toBe(4);
    await expect(day("2026-02-30", "UTC")).rejects.toThrow(/not a day/);
  });

  it("name the day a moment falls on in the shop's time zone", () => {
    expect(dayIn("Asia/Shanghai", new Date("2026-02-28T15:59:59Z"))).toBe("2026-02-28");
    expect(dayIn("Asia/Shanghai", new Date("2026-02-28T16:00:00Z"))).toBe("2026-03-01");
    expect(dayIn("America/Los_Angeles", new Date("2026-03-01T07:00:00Z"))).toBe("2026-02-28");
    expect(dayIn("UTC", new Date("2026-03-01T00:00:00Z"))).toBe("2026-03-01");
  });

  it("read every figure through an index, never by scanning a whole table", async () => {
    for (const [name, query] of Object.entries(reportQueries("2026-03-01", "Asia/Shanghai"))) {
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
