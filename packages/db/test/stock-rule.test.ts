// The stock rule's home (packages/db/sql/stock-rule.sql): the file is what the migrations made,
// and under a real race of buyers it keeps every committed line's units out of the stock. The
// same race with the rule dropped commits more than there is: the check is not vacuous.
import { readFile } from "node:fs/promises";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@orderbot/testkit";

const testDb = useTestDatabase();
const RULE = new URL("../sql/stock-rule.sql", import.meta.url);
const BUYERS = 12;
const UNITS = 5;

const DEFINITIONS = `
  SELECT pg_get_functiondef('order_line_take_stock()'::regprocedure) AS take,
         pg_get_functiondef('unpaid_hold_cap(int, int, numeric)'::regprocedure) AS cap,
         (SELECT pg_get_triggerdef(oid) FROM pg_trigger WHERE tgname = 'Order_line_takes_stock') AS trigger`;
const DROP_RULE = `
  DROP TRIGGER "Order_line_takes_stock" ON order_items;
  DROP FUNCTION order_line_take_stock();
  DROP FUNCTION unpaid_hold_cap(int, int, numeric)`;

async function withClient<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: testDb.url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

let seq = 0;

/** One buyer on a connection of their own: an order with one line of one unit, committed or not. */
function buy(productId: number): Promise<boolean> {
  const n = ++seq;
  return withClient(async (client) => {
    await client.query("BEGIN");
    const { rows } = await client.query<{ id: number }>(
      `INSERT INTO orders (public_id, user_id, chat_id, status, total_minor, currency, expires_at,
                           idempotency_key, updated_at)
       VALUES ($1, $2, $2, 'RESERVED', 10, 'XTR', now() + interval '1 hour', $1, now())
       RETURNING id`,
      [`rule-${n}`, 1_000 + n],
    );
    await client.query(
      `INSERT INTO order_items (order_id, product_id, quantity, unit_price_minor) VALUES ($1, $2, 1, 10)`,
      [rows[0]!.id, productId],
    );
    return client.query("COMMIT").then(
      () => true,
      () => false, // the rule refused at COMMIT: the whole transaction rolled back
    );
  });
}

/** BUYERS buyers at once for UNITS units: how many committed, and what is left of the stock. */
async function race(sku: string) {
  const product = await testDb.db.product.create({
    data: { sku, titleEn: "Tea", titleZh: "茶", priceMinor: 10, currency: "XTR", stock: UNITS },
  });
  const commits = await Promise.all(Array.from({ length: BUYERS }, () => buy(product.id)));
  const left = await testDb.db.product.findUniqueOrThrow({ where: { id: product.id } });
  const lines = await testDb.db.orderItem.aggregate({
    where: { productId: product.id },
    _sum: { quantity: true },
  });
  return {
    committed: commits.filter(Boolean).length,
    stock: left.stock,
    taken: lines._sum.quantity ?? 0,
  };
}

describe("the stock rule", () => {
  it("is defined in the migrated database exactly as stock-rule.sql says", async () => {
    await withClient(async (client) => {
      const migrated = (await client.query(DEFINITIONS)).rows[0];
      await client.query("BEGIN");
      await client.query(DROP_RULE);
      await client.query(await readFile(RULE, "utf8"));
      const fromFile = (await client.query(DEFINITIONS)).rows[0];
      await client.query("ROLLBACK");
      expect(migrated.trigger).toContain("DEFERRABLE INITIALLY DEFERRED");
      expect(fromFile).toEqual(migrated);
    });
  });

  it(`lets ${UNITS} of ${BUYERS} racing buyers commit, and takes each unit once`, async () => {
    const outcome = await race("RULE-ON");
    expect(outcome).toEqual({ committed: UNITS, stock: 0, taken: UNITS });
  });

  it("oversells the same race without it, and stock-rule.sql puts it back", async () => {
    await withClient((client) => client.query(DROP_RULE));
    const outcome = await race("RULE-OFF");
    await withClient(async (client) => client.query(await readFile(RULE, "utf8")));
    expect(outcome.committed).toBe(BUYERS);
    expect(outcome.taken).toBeGreaterThan(UNITS - outcome.stock); // committed lines no unit paid for
    expect(await race("RULE-BACK")).toEqual({ committed: UNITS, stock: 0, taken: UNITS });
  });
});
