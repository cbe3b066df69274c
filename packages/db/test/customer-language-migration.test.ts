// Migration 20261203030000_customer_language_and_cards on a database that already has orders: every
// customer who ordered gets a stored language (English until they next write), and a language the
// shop does not speak is refused.
import pg from "pg";
import { describe, expect, it } from "vitest";
import { migrate } from "@orderbot/db";
import { useEmptyDatabases } from "./support/empty-databases.ts";
import { useMigrationsBefore } from "./support/migrations-before.ts";

const MIGRATION = "20261203030000_customer_language_and_cards";
/** The one after it: the database is checked as this migration left it. */
const NEXT = "20261204000000_product_kinds";
const emptyDatabase = useEmptyDatabases("lang");
const migrationsBefore = useMigrationsBefore();

describe(`migration ${MIGRATION}`, () => {
  it("gives every earlier customer a language, keeps orders as they were, and checks languages", async () => {
    const url = await emptyDatabase();
    const before = await migrationsBefore(MIGRATION);
    expect((await migrate({ url, dir: before })).applied).not.toContain(MIGRATION);

    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      for (const [i, userId] of [7000000001, 7000000001, 7000000002].entries())
        await client.query(
          `INSERT INTO orders (public_id, user_id, chat_id, status, total_minor, currency, expires_at,
                               idempotency_key, updated_at)
           VALUES ($1, $2, $2, 'PAID', 10, 'XTR', now(), $3, now())`,
          [`ORDER${i + 2}CD`, userId, `k${i}`],
        );

      expect((await migrate({ url, dir: await migrationsBefore(NEXT) })).applied).toContain(
        MIGRATION,
      );

      const { rows } = await client.query<{ user_id: string; language: string }>(
        `SELECT user_id::text, language FROM customers ORDER BY user_id`,
      );
      expect(rows).toEqual([
        { user_id: "7000000001", language: "en" },
        { user_id: "7000000002", language: "en" },
      ]);
      const { rows: orders } = await client.query(
        `SELECT count(*)::int AS n FROM orders
          WHERE card_message_id IS NULL AND invoice_message_id IS NULL AND invoice_sent_at IS NULL`,
      );
      expect(orders).toEqual([{ n: 3 }]);
      await expect(
        client.query(`INSERT INTO customers (user_id, language) VALUES (7000000003, 'fr')`),
      ).rejects.toThrow(/customers_language_known/);
    } finally {
      await client.end();
    }
  });
});
