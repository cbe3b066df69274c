import { beforeAll, describe, expect, it } from "vitest";
import { addProduct, intent, placed, stockOf, unique, user } from "../support/fixtures.ts";
import { assertInvariants } from "@orderbot/testkit";
import { type Instance, useShopHarness } from "../support/shop.ts";
import { ownerActor } from "../../src/rights/index.ts";
import type { StockChange } from "../../src/stock/index.ts";

let instances: Instance[];
const OPERATOR = user(900);
// 60 changes at once queue for one product's row: the pool wait is long so that a loaded machine
// tests the invariants, not the 2 s default wait (it once ran out in CI).
const h = useShopHarness({ config: { maxOpenOrders: 1_000, transactionMaxWaitMs: 15_000 } });
beforeAll(async () => {
  instances = [h.main, ...(await Promise.all([1, 2, 3].map(() => h.instance())))];
});

describe("adjustStock", () => {
  it("adds, removes and sets, each with an ADJUST ledger row by the operator's masked id and a version bump", async () => {
    const p = await addProduct(h.db, { stock: 10 });
    expect(
      await h.shop.stock.adjustStock(p.sku, { op: "add", units: 5 }, ownerActor(OPERATOR)),
    ).toMatchObject({
      status: "ok",
      delta: 5,
      product: { stock: 15, version: 1 },
    });
    expect(
      await h.shop.stock.adjustStock(p.sku, { op: "remove", units: 3 }, ownerActor(OPERATOR)),
    ).toMatchObject({
      status: "ok",
      delta: -3,
      product: { stock: 12, version: 2 },
    });
    expect(
      await h.shop.stock.adjustStock(p.sku, { op: "set", units: 20 }, ownerActor(OPERATOR)),
    ).toMatchObject({
      status: "ok",
      delta: 8,
      product: { stock: 20, version: 3 },
    });
    expect(
      await h.shop.stock.adjustStock(p.sku, { op: "set", units: 20 }, ownerActor(OPERATOR)),
    ).toMatchObject({
      status: "ok",
      delta: 0,
      product: { stock: 20, version: 3 },
    });
    expect(
      await h.shop.stock.adjustStock(p.sku, { op: "set", units: 0 }, ownerActor(OPERATOR)),
    ).toMatchObject({
      status: "ok",
      delta: -20,
      product: { stock: 0 },
    });
    const ledger = await h.db.stockMovement.findMany({
      where: { productId: p.id, reason: "ADJUST" },
      orderBy: { id: "asc" },
    });
    expect(ledger.map((m) => m.delta)).toEqual([5, -3, 8, -20]);
    expect(new Set(ledger.map((m) => m.actor))).toEqual(
      new Set([expect.stringMatching(/^op:[\w-]{16}$/)]),
    );
    expect(ledger[0]!.actor).not.toContain(String(OPERATOR));
    await assertInvariants(h.db);
  });

  it("refuses a change from a stale version with the product as it is now, for every op", async () => {
    const p = await addProduct(h.db, { stock: 10 });
    const seen = p.version;
    await h.shop.stock.adjustStock(p.sku, { op: "add", units: 1 }, ownerActor(OPERATOR));
    for (const op of ["add", "remove", "set"] as const) {
      const change = { op, units: 4, expectedVersion: seen };
      expect(await h.shop.stock.adjustStock(p.sku, change, ownerActor(OPERATOR))).toEqual({
        status: "conflict",
        product: expect.objectContaining({ sku: p.sku, stock: 11, version: seen + 1 }),
      });
    }
    const current = { op: "remove", units: 4, expectedVersion: seen + 1 } as const;
    expect(await h.shop.stock.adjustStock(p.sku, current, ownerActor(OPERATOR))).toMatchObject({
      status: "ok",
      product: { stock: 7, version: seen + 2 },
    });
    await assertInvariants(h.db);
  });

  it("applies a command once per request id, however often it is retried, even concurrently", async () => {
    const p = await addProduct(h.db, { stock: 10 });
    const requestId = unique("stock:-100:7");
    expect(
      await h.shop.stock.adjustStock(p.sku, { op: "add", units: 5 }, ownerActor(OPERATOR), {
        requestId,
      }),
    ).toMatchObject({
      status: "ok",
      delta: 5,
      product: { stock: 15 },
    });
    expect(
      await h.shop.stock.adjustStock(p.sku, { op: "add", units: 5 }, ownerActor(OPERATOR), {
        requestId,
      }),
    ).toMatchObject({
      status: "ok",
      delta: 5,
      replayed: true,
      product: { stock: 15 },
    });
    const twin = unique("stock:-100:8");
    const results = await Promise.all(
      instances.map((i) =>
        i.shop.stock.adjustStock(p.sku, { op: "add", units: 3 }, ownerActor(OPERATOR), {
          requestId: twin,
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(["ok", "ok", "ok", "ok"]);
    expect(await stockOf(h.db, p.sku)).toBe(18);
    expect(await h.db.stockMovement.count({ where: { productId: p.id, reason: "ADJUST" } })).toBe(
      2,
    );
    await assertInvariants(h.db);
  });

  it("a re-delivered '=N' that found the stock already at N stays a no-op after orders took units", async () => {
    const p = await addProduct(h.db, { stock: 10 });
    const requestId = unique("stock:-100:10");
    expect(
      await h.shop.stock.adjustStock(p.sku, { op: "set", units: 10 }, ownerActor(OPERATOR), {
        requestId,
      }),
    ).toMatchObject({
      status: "ok",
      delta: 0,
    });
    await placed(h.shop, user(40), [{ sku: p.sku, quantity: 2 }]); // sold while the reply failed
    // Telegram delivers the command again: it must not put the two sold units back on sale.
    expect(
      await h.shop.stock.adjustStock(p.sku, { op: "set", units: 10 }, ownerActor(OPERATOR), {
        requestId,
      }),
    ).toMatchObject({
      status: "ok",
      delta: 0,
      replayed: true,
      product: { stock: 8 },
    });
    expect(await stockOf(h.db, p.sku)).toBe(8);
    await assertInvariants(h.db);
  });

  it("never removes below zero, and refuses bad input and unknown skus", async () => {
    const p = await addProduct(h.db, { stock: 2 });
    expect(
      await h.shop.stock.adjustStock(p.sku, { op: "remove", units: 3 }, ownerActor(OPERATOR)),
    ).toEqual({
      status: "insufficient",
      available: 2,
    });
    expect(
      await h.shop.stock.adjustStock("NOPE", { op: "add", units: 1 }, ownerActor(OPERATOR)),
    ).toEqual({
      status: "not-found",
    });
    // A refusal is data: which field, which rule, which bound; the words are the reader's.
    expect(
      await h.shop.stock.adjustStock(p.sku, { op: "add", units: 1_000_001 }, ownerActor(OPERATOR)),
    ).toEqual({
      status: "invalid",
      problems: [{ field: "change.units", rule: "max", bound: 1_000_000 }],
    });
    const bad = [
      { op: "add", units: 0 },
      { op: "remove", units: 0 },
      { op: "add", units: 1.5 },
      { op: "add", units: 1_000_001 },
      { op: "set", units: -1 },
      { op: "set", units: 3, expectedVersion: -1 },
      { op: "double", units: 3 },
    ] as StockChange[];
    for (const change of bad) {
      expect(
        (await h.shop.stock.adjustStock(p.sku, change, ownerActor(OPERATOR))).status,
        JSON.stringify(change),
      ).toBe("invalid");
    }
    expect(await stockOf(h.db, p.sku)).toBe(2);
  });

  it("keeps stock = ledger while operators set and adjust and customers order, all at once", async () => {
    const p = await addProduct(h.db, { stock: 50 });
    const ops = Array.from({ length: 60 }, (_, i) => {
      const shop = instances[i % instances.length]!.shop;
      if (i % 3 === 0)
        return shop.stock.adjustStock(
          p.sku,
          { op: "set", units: 30 + (i % 7) },
          ownerActor(OPERATOR),
        );
      if (i % 3 === 1)
        return shop.stock.adjustStock(
          p.sku,
          { op: i % 2 ? "add" : "remove", units: 2 },
          ownerActor(OPERATOR),
        );
      return shop.orders.placeOrder(intent(user(100 + i), p.sku, 1, "k"));
    });
    const results = await Promise.all(ops);
    for (const r of results)
      expect(["ok", "insufficient", "conflict", "out-of-stock"]).toContain(r.status);
    await assertInvariants(h.db);
  });
});

describe("setPrice", () => {
  it("changes the price with a price_changes ledger row; orders keep the price they were placed at", async () => {
    const p = await addProduct(h.db, { stock: 10, priceMinor: 10 });
    const order = await placed(h.shop, user(1), [{ sku: p.sku, quantity: 1 }]);
    const result = await h.shop.stock.setPrice({
      sku: p.sku,
      priceMinor: 15,
      actor: ownerActor(OPERATOR),
    });
    expect(result).toMatchObject({ status: "ok", previousMinor: 10, product: { priceMinor: 15 } });
    expect(await h.db.priceChange.findMany({ where: { productId: p.id } })).toMatchObject([
      {
        oldPriceMinor: 10,
        newPriceMinor: 15,
        currency: "XTR",
        actor: expect.stringMatching(/^op:/),
      },
    ]);
    expect((await h.shop.orders.get(order.id))?.totalMinor).toBe(10);
    // The same price again changes nothing.
    expect(
      await h.shop.stock.setPrice({ sku: p.sku, priceMinor: 15, actor: ownerActor(OPERATOR) }),
    ).toMatchObject({
      status: "ok",
      previousMinor: 15,
    });
    expect(await h.db.priceChange.count({ where: { productId: p.id } })).toBe(1);
  });

  it("reports a conflict when the product changed since the version the operator saw", async () => {
    const p = await addProduct(h.db, { stock: 10, priceMinor: 10 });
    const seen = (await h.shop.catalog.get({ sku: p.sku }))!;
    expect(
      (
        await h.shop.stock.setPrice({
          sku: p.sku,
          priceMinor: 11,
          actor: ownerActor(OPERATOR),
          expectedVersion: seen.version,
        })
      ).status,
    ).toBe("ok");
    expect(
      await h.shop.stock.setPrice({
        sku: p.sku,
        priceMinor: 12,
        actor: ownerActor(OPERATOR),
        expectedVersion: seen.version,
      }),
    ).toMatchObject({ status: "conflict", product: { priceMinor: 11 } });
  });

  it("lets one of two concurrent price changes win", async () => {
    const p = await addProduct(h.db, { stock: 10, priceMinor: 10 });
    const results = await Promise.all(
      [20, 30, 40, 50].map((price, i) =>
        instances[i]!.shop.stock.setPrice({
          sku: p.sku,
          priceMinor: price,
          actor: ownerActor(OPERATOR),
        }),
      ),
    );
    const oks = results.filter((r) => r.status === "ok");
    expect(oks.length).toBeGreaterThanOrEqual(1);
    const changes = await h.db.priceChange.findMany({
      where: { productId: p.id },
      orderBy: { id: "asc" },
    });
    expect(changes).toHaveLength(oks.length);
    // The changes chain: each starts from the price the previous one set.
    changes.forEach((c, i) =>
      expect(c.oldPriceMinor).toBe(i === 0 ? 10 : changes[i - 1]!.newPriceMinor),
    );
    expect((await h.shop.catalog.get({ id: p.id }))?.priceMinor).toBe(
      changes.at(-1)!.newPriceMinor,
    );
  });

  it("refuses bad prices and unknown skus", async () => {
    const p = await addProduct(h.db, { stock: 1 });
    expect(
      (await h.shop.stock.setPrice({ sku: p.sku, priceMinor: 0, actor: ownerActor(OPERATOR) }))
        .status,
    ).toBe("invalid");
    expect(
      (await h.shop.stock.setPrice({ sku: p.sku, priceMinor: 1.5, actor: ownerActor(OPERATOR) }))
        .status,
    ).toBe("invalid");
    expect(
      await h.shop.stock.setPrice({ sku: "NOPE", priceMinor: 5, actor: ownerActor(OPERATOR) }),
    ).toEqual({
      status: "not-found",
    });
  });
});

describe("importBatch", () => {
  it("applies a delivery once per batch id, with IMPORT ledger rows carrying the batch id", async () => {
    const a = await addProduct(h.db, { stock: 1 });
    const b = await addProduct(h.db, { stock: 0 });
    const batch = {
      batchId: unique("delivery"),
      lines: [
        { sku: a.sku, quantity: 10 },
        { sku: b.sku, quantity: 5 },
      ],
      actor: OPERATOR,
    };
    expect(await h.shop.stock.importBatch(batch)).toEqual({
      status: "ok",
      replayed: false,
      lines: 2,
      units: 15,
    });
    expect(await h.shop.stock.importBatch(batch)).toEqual({
      status: "ok",
      replayed: true,
      lines: 2,
      units: 15,
    });
    expect(await stockOf(h.db, a.sku)).toBe(11);
    expect(await stockOf(h.db, b.sku)).toBe(5);
    expect(await h.db.stockBatch.findUnique({ where: { id: batch.batchId } })).toMatchObject({
      lines: 2,
      actor: expect.stringMatching(/^op:/),
    });
    await assertInvariants(h.db);
  });

  it("never collides with the other users of the ledger's batch id (the seed, /stock request ids)", async () => {
    const p = await addProduct(h.db, { stock: 1 }); // its SEED row has batch id "seed"
    const requestId = unique("stock:-100:9");
    expect(
      (
        await h.shop.stock.adjustStock(p.sku, { op: "add", units: 1 }, ownerActor(OPERATOR), {
          requestId,
        })
      ).status,
    ).toBe("ok");
    for (const batchId of ["seed", requestId]) {
      expect(
        await h.shop.stock.importBatch({
          batchId,
          lines: [{ sku: p.sku, quantity: 2 }],
          actor: OPERATOR,
        }),
      ).toMatchObject({
        status: "ok",
        replayed: false,
      });
    }
    expect(await stockOf(h.db, p.sku)).toBe(6);
    await assertInvariants(h.db);
  });

  it("applies once when four instances import the same batch at the same moment", async () => {
    const p = await addProduct(h.db, { stock: 0 });
    const batch = {
      batchId: unique("race"),
      lines: [{ sku: p.sku, quantity: 7 }],
      actor: OPERATOR,
    };
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        instances[i % instances.length]!.shop.stock.importBatch(batch),
      ),
    );
    expect(results.filter((r) => r.status === "ok" && !r.replayed)).toHaveLength(1);
    for (const r of results) expect(["ok", "busy"]).toContain(r.status);
    expect(await stockOf(h.db, p.sku)).toBe(7);
  });

  it("refuses unknown skus, duplicate lines and bad quantities, applying nothing", async () => {
    const p = await addProduct(h.db, { stock: 0 });
    const bad = [
      [
        { sku: p.sku, quantity: 1 },
        { sku: "NOPE", quantity: 1 },
      ],
      [
        { sku: p.sku, quantity: 1 },
        { sku: p.sku, quantity: 2 },
      ],
      [{ sku: p.sku, quantity: 0 }],
      [],
    ];
    for (const lines of bad)
      expect(
        (await h.shop.stock.importBatch({ batchId: unique("bad"), lines, actor: OPERATOR })).status,
      ).toBe("invalid");
    expect(
      (
        await h.shop.stock.importBatch({
          batchId: "has space",
          lines: [{ sku: p.sku, quantity: 1 }],
          actor: OPERATOR,
        })
      ).status,
    ).toBe("invalid");
    expect(await stockOf(h.db, p.sku)).toBe(0);
    expect(await h.db.stockBatch.count({ where: { id: { startsWith: "bad" } } })).toBe(0);
  });
});

describe("catalog", () => {
  it("lists active products in pages, and finds any product by id or sku", async () => {
    const before = (await h.shop.catalog.list()).total;
    const hidden = await addProduct(h.db, { stock: 1, active: false });
    const shown = await addProduct(h.db, { stock: 4, priceMinor: 33 });
    const first = await h.shop.catalog.list({ page: 1, pageSize: 2 });
    expect(first.total).toBe(before + 1);
    expect(first.items).toHaveLength(2);
    const all = [];
    for (let page = 1; ; page++) {
      const p = await h.shop.catalog.list({ page, pageSize: 2 });
      all.push(...p.items);
      if (!p.hasMore) break;
    }
    expect(all.map((p) => p.sku)).toContain(shown.sku);
    expect(all.map((p) => p.sku)).not.toContain(hidden.sku);
    expect(await h.shop.catalog.get({ sku: shown.sku })).toMatchObject({
      id: shown.id,
      priceMinor: 33,
      currency: "XTR",
      stock: 4,
      title: { en: shown.sku },
    });
    expect(await h.shop.catalog.get({ id: hidden.id })).toMatchObject({ active: false });
    expect(await h.shop.catalog.get({ sku: "NOPE" })).toBeNull();
  });
});
