// The version-column update's home (src/stock/versioned-update.ts): operators on connections of
// their own, who all read the same version, set the same new price at once; exactly one wins and
// the rest are told. They write the same price so that nothing but the version can tell them
// apart: without the version condition every writer wins. The same race written unconditionally
// (a barrier between read and write, so the race is certain) shows that outcome.
import { afterAll, describe, expect, it } from "vitest";
import { createDatabase, runTransaction, type Database } from "@orderbot/db";
import { barrier, useTestDatabase } from "@orderbot/testkit";
import { writePriceIfUnchanged } from "../../src/stock/versioned-update.ts";

const testDb = useTestDatabase();
const WRITERS = 8;
const NEW_PRICE = 20;
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

describe("one new price set by 8 operators at once, from the same version", () => {
  it("lets exactly one win; the others get no row back and nothing of theirs is written", async () => {
    const { id, version } = await product("VERSIONED");
    const allRead = barrier(WRITERS);
    const won = await Promise.all(
      writers().map(async (db) => {
        const seen = await db.product.findUniqueOrThrow({ where: { id } });
        await allRead();
        const row = await runTransaction(db, (tx) =>
          writePriceIfUnchanged(tx, {
            productId: id,
            seenPriceMinor: seen.priceMinor,
            expectedVersion: seen.version,
            priceMinor: NEW_PRICE,
          }),
        );
        return row !== null;
      }),
    );
    expect(won.filter(Boolean)).toHaveLength(1);
    const after = await testDb.db.product.findUniqueOrThrow({ where: { id } });
    expect(after).toMatchObject({ priceMinor: NEW_PRICE, version: version + 1 });
  });

  it("lets every writer think it won when each writes what it read, unconditionally", async () => {
    const { id, version } = await product("UNVERSIONED");
    const allRead = barrier(WRITERS);
    const won = await Promise.all(
      writers().map(async (db) => {
        const seen = await db.product.findUniqueOrThrow({ where: { id } });
        await allRead();
        const { count } = await db.product.updateMany({
          where: { id },
          data: { priceMinor: NEW_PRICE, version: seen.version + 1 },
        });
        return count === 1;
      }),
    );
    expect(won.filter(Boolean)).toHaveLength(WRITERS); // seven changes silently overwritten
    const after = await testDb.db.product.findUniqueOrThrow({ where: { id } });
    expect(after.version).toBe(version + 1);
  });
});
