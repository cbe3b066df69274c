// The version-column update's home (src/stock/versioned-update.ts): operators on connections of
// their own, who all read the same version, change the price at once; exactly one wins and the
// rest are told. The same race read first and written after unconditionally (a barrier between,
// so the race is certain) lets every writer think it won: the check is not vacuous.
import { afterAll, describe, expect, it } from "vitest";
import { createDatabase, runTransaction, type Database } from "@orderbot/db";
import { barrier, useTestDatabase } from "@orderbot/testkit";
import { writePriceIfUnchanged } from "../../src/stock/versioned-update.ts";

const testDb = useTestDatabase();
const WRITERS = 8;
const clients: Database[] = [];
afterAll(() => Promise.all(clients.map((db) => db.$disconnect())));

function writers(): Database[] {
  while (clients.length < WRITERS) clients.push(createDatabase({ url: testDb.url, poolMax: 1 }));
  return clients;
}

async function product(sku: string) {
  return testDb.db.product.create({
    data: { sku, titleEn: "Tea", titleZh: "茶", priceMinor: 10, currency: "XTR", stock: 5 },
  });
}

describe("a price changed by 8 operators at once, from the same version", () => {
  it("lets exactly one win; the others get no row back and nothing of theirs is written", async () => {
    const { id, version } = await product("VERSIONED");
    const allRead = barrier(WRITERS);
    const won = await Promise.all(
      writers().map(async (db, i) => {
        const seen = await db.product.findUniqueOrThrow({ where: { id } });
        await allRead();
        const row = await runTransaction(db, (tx) =>
          writePriceIfUnchanged(tx, {
            productId: id,
            seenPriceMinor: seen.priceMinor,
            expectedVersion: seen.version,
            priceMinor: 20 + i,
          }),
        );
        return row ? row.priceMinor : null;
      }),
    );
    const winners = won.filter((price) => price !== null);
    expect(winners).toHaveLength(1);
    const after = await testDb.db.product.findUniqueOrThrow({ where: { id } });
    expect(after).toMatchObject({ priceMinor: winners[0], version: version + 1 });
  });

  it("lets every writer think it won when each writes what it read, unconditionally", async () => {
    const { id, version } = await product("UNVERSIONED");
    const allRead = barrier(WRITERS);
    const won = await Promise.all(
      writers().map(async (db, i) => {
        const seen = await db.product.findUniqueOrThrow({ where: { id } });
        await allRead();
        const { count } = await db.product.updateMany({
          where: { id },
          data: { priceMinor: 20 + i, version: seen.version + 1 },
        });
        return count === 1;
      }),
    );
    expect(won.filter(Boolean)).toHaveLength(WRITERS); // seven changes silently overwritten
    const after = await testDb.db.product.findUniqueOrThrow({ where: { id } });
    expect(after.version).toBe(version + 1);
  });
});
