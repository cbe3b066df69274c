import { describe, expect, it } from "vitest";
import { runTransaction, TransactionAbortedError } from "@orderbot/db";
import { useTestDatabase } from "@orderbot/testkit";

const { db } = useTestDatabase();

async function newProduct(sku: string, stock: number) {
  return db.product.create({
    data: { sku, titleEn: sku, titleZh: sku, priceMinor: 1, currency: "XTR", stock },
  });
}

describe("runTransaction", () => {
  it("retries serialization failures until every concurrent increment lands", async () => {
    const p = await newProduct("SER", 0);
    let attempts = 0;
    await Promise.all(
      Array.from({ length: 8 }, () =>
        runTransaction(
          db,
          async (tx) => {
            attempts++;
            const row = await tx.product.findUniqueOrThrow({ where: { id: p.id } });
            await tx.product.update({ where: { id: p.id }, data: { stock: row.stock + 1 } });
          },
          { isolationLevel: "Serializable", retries: 20 },
        ),
      ),
    );
    expect((await db.product.findUniqueOrThrow({ where: { id: p.id } })).stock).toBe(8);
    expect(attempts).toBeGreaterThan(8); // some attempts failed with 40001 and were run again
  });

  it("rolls back when its signal aborts while the body runs", async () => {
    const p = await newProduct("ABORT", 5);
    const controller = new AbortController();
    const result = runTransaction(
      db,
      async (tx) => {
        await tx.product.update({ where: { id: p.id }, data: { stock: 0 } });
        controller.abort(new Error("lease lost"));
      },
      { signal: controller.signal },
    );
    await expect(result).rejects.toBeInstanceOf(TransactionAbortedError);
    expect((await db.product.findUniqueOrThrow({ where: { id: p.id } })).stock).toBe(5);
  });

  it("does not start when its signal has already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    let ran = false;
    await expect(
      runTransaction(
        db,
        async () => {
          ran = true;
        },
        { signal: controller.signal },
      ),
    ).rejects.toBeInstanceOf(TransactionAbortedError);
    expect(ran).toBe(false);
  });

  it("does not retry errors that are not transient", async () => {
    let attempts = 0;
    await expect(
      runTransaction(db, async (tx) => {
        attempts++;
        await tx.product.create({
          data: {
            sku: "NEG",
            titleEn: "x",
            titleZh: "x",
            priceMinor: 1,
            currency: "XTR",
            stock: -1,
          },
        });
      }),
    ).rejects.toThrow();
    expect(attempts).toBe(1);
  });
});
