import { describe, expect, it } from "vitest";
import { MAX_CODE_LENGTH, MAX_CODES_PER_BATCH } from "../../src/delivery/index.ts";
import { addProduct, stockOf, unique } from "../support/fixtures.ts";
import { assertInvariants } from "@orderbot/testkit";
import { HOARDING_CAP_OFF, useShopHarness } from "../support/shop.ts";

const h = useShopHarness({ config: HOARDING_CAP_OFF });

const OPERATOR = 9_000_000_001n;
const load = (sku: string, text: string, batchId = unique("codes")) =>
  h.shop.delivery.loadCodes({ sku, text, batchId, actor: OPERATOR });

describe("/codes: loading a digital product's pool", () => {
  it("trims lines, skips blanks and repeats, and raises the stock by the new codes through the ledger", async () => {
    const { sku } = await addProduct(h.db, { stock: 0 });
    const result = await load(sku, "  AAA-1 \n\n\tBBB-2\r\nAAA-1\n   \nCCC-3\n");
    expect(result).toEqual({
      status: "ok",
      replayed: false,
      sku,
      added: 3,
      known: 0,
      repeated: 1,
    });
    const secrets = await h.db.digitalItem.findMany({
      where: { product: { sku } },
      orderBy: { id: "asc" },
    });
    expect(secrets.map((s) => s.secret)).toEqual(["AAA-1", "BBB-2", "CCC-3"]);
    expect(await stockOf(h.db, sku)).toBe(3);
    const ledger = await h.db.stockMovement.findMany({
      where: { product: { sku }, reason: "IMPORT" },
    });
    expect(ledger.map((m) => m.delta)).toEqual([3]);
    expect(await h.shop.delivery.pool(sku)).toMatchObject({
      stock: 3,
      unused: 3,
      assigned: 0,
      revoked: 0,
    });
    await assertInvariants(h.db);
  });

  it("adds a code already in the pool once, and nothing at all for a re-delivered command", async () => {
    const { sku } = await addProduct(h.db, { stock: 0 });
    expect(await load(sku, "K1\nK2")).toMatchObject({ status: "ok", added: 2 });
    const again = await load(sku, "K2\nK3", "codes:-100123:77");
    expect(again).toMatchObject({ status: "ok", replayed: false, added: 1, known: 1 });
    // Telegram sends the same message again: the same batch id.
    const replay = await load(sku, "K2\nK3", "codes:-100123:77");
    expect(replay).toMatchObject({ status: "ok", replayed: true, added: 1, known: 1 });
    expect(await h.db.digitalItem.count({ where: { product: { sku } } })).toBe(3);
    expect(await stockOf(h.db, sku)).toBe(3);
    // The same list loaded twice under two ids (two messages): still nothing new, no ledger row.
    expect(await load(sku, "K1\nK2\nK3")).toMatchObject({ status: "ok", added: 0, known: 3 });
    expect(await stockOf(h.db, sku)).toBe(3);
    expect(await h.db.stockMovement.count({ where: { product: { sku }, reason: "IMPORT" } })).toBe(
      2,
    );
    await assertInvariants(h.db);
  });

  it("refuses a list with lines over the limit, naming them, and changes nothing", async () => {
    const { sku } = await addProduct(h.db, { stock: 0 });
    const long = "x".repeat(MAX_CODE_LENGTH + 1);
    const result = await load(sku, ["OK-1", long, "", "OK-2", long].join("\n"));
    expect(result).toEqual({
      status: "refused",
      lines: { ok: false, problem: "too-long", lines: [2, 5] },
    });
    expect(await h.db.digitalItem.count({ where: { product: { sku } } })).toBe(0);
    expect(await stockOf(h.db, sku)).toBe(0);
    // A code of exactly the limit fits.
    expect(await load(sku, "y".repeat(MAX_CODE_LENGTH))).toMatchObject({ added: 1 });
  });

  it("refuses an empty list, a batch over the cap, an unknown or physical product", async () => {
    const { sku } = await addProduct(h.db, { stock: 0 });
    expect(await load(sku, " \n\n ")).toEqual({
      status: "refused",
      lines: { ok: false, problem: "empty" },
    });
    const many = Array.from({ length: MAX_CODES_PER_BATCH + 1 }, (_, i) => `C${i}`).join("\n");
    expect(await load(sku, many)).toEqual({
      status: "refused",
      lines: { ok: false, problem: "too-many", count: MAX_CODES_PER_BATCH + 1 },
    });
    expect(await load("NO-SUCH-SKU", "A")).toEqual({ status: "not-found" });
    const physical = await addProduct(h.db, { stock: 5 });
    await h.db.product.update({ where: { id: physical.id }, data: { kind: "PHYSICAL" } });
    expect(await load(physical.sku, "A")).toEqual({
      status: "not-digital",
      sku: physical.sku,
    });
    expect(await h.db.digitalItem.count({ where: { productId: physical.id } })).toBe(0);
    expect(await stockOf(h.db, physical.sku)).toBe(5);
  });

  it("loads the cap in one batch", async () => {
    const { sku } = await addProduct(h.db, { stock: 0 });
    const many = Array.from({ length: MAX_CODES_PER_BATCH }, (_, i) => `C${i}`).join("\n");
    expect(await load(sku, many)).toMatchObject({ status: "ok", added: MAX_CODES_PER_BATCH });
    expect(await stockOf(h.db, sku)).toBe(MAX_CODES_PER_BATCH);
  });
});
