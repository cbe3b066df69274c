import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type Database } from "@orderbot/db";
import { createTestDatabase, type TestDatabase } from "@orderbot/testkit";
import { statementNames } from "../src/statement-names.ts";

let testDb: TestDatabase;
let db: Database;

beforeAll(async () => {
  testDb = await createTestDatabase();
  // One connection, so that every statement below runs in the session whose cache it reads.
  db = createDatabase({ url: testDb.url, poolMax: 1 });
});
afterAll(async () => {
  await db.$disconnect();
  await testDb.drop();
});

/** The statements this session has prepared (PostgreSQL's own view of them). */
async function prepared(): Promise<string[]> {
  const rows = await db.$queryRaw<{ statement: string }[]>`
    SELECT statement FROM pg_prepared_statements ORDER BY prepare_time`;
  return rows.map((r) => r.statement);
}

describe("statements prepared once per connection", () => {
  it("names each distinct text once, and stops naming past its bound", () => {
    const name = statementNames(2);
    expect(name({ sql: "SELECT 1" })).toBe("s0");
    expect(name({ sql: "SELECT 2" })).toBe("s1");
    expect(name({ sql: "SELECT 1" })).toBe("s0");
    expect(name({ sql: "SELECT 3" })).toBe(""); // past the bound: unnamed
    expect(name({ sql: "SELECT 2" })).toBe("s1");
  });

  it("prepares a model query once and runs it again by name, with the same results", async () => {
    await db.product.create({
      data: { sku: "PREP-1", titleEn: "a", titleZh: "a", priceMinor: 5, currency: "XTR", stock: 3 },
    });
    const find = () => db.product.findMany({ where: { sku: { in: ["PREP-1"] } } });
    const first = await find();
    const before = await prepared();
    await db.product.update({ where: { sku: "PREP-1" }, data: { stock: 2 } });
    const second = await find();
    const after = await prepared();
    expect(first.map((p) => p.stock)).toEqual([3]);
    expect(second.map((p) => p.stock)).toEqual([2]);
    const select = before.filter((s) => s.includes('FROM "public"."products"'));
    expect(select).toHaveLength(1);
    // Run again, the query was not prepared a second time.
    expect(after.filter((s) => s === select[0])).toHaveLength(1);
  });
});
