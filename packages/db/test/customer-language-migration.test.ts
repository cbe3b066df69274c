// Migration 20261203030000_customer_language_and_cards on a database that already has orders: every
// customer who ordered gets a stored language (English until they next write), and a language the
// shop does not speak is refused.
import { cp, mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { migrate } from "@orderbot/db";
import { PROJECT_ROOT, serviceUrls, withDatabase } from "@orderbot/testkit";

const MIGRATION = "20261203030000_customer_language_and_cards";
const admin = new pg.Client({
  connectionString: withDatabase(serviceUrls().databaseUrl, "postgres"),
});
let database: string | undefined;
let dir: string | undefined;

afterAll(async () => {
  if (database) {
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.end();
  }
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe(`migration ${MIGRATION}`, () => {
  it("gives every earlier customer a language, keeps orders as they were, and checks languages", async () => {
    await admin.connect();
    database = `orderbot_test_${process.env.ORDERBOT_TEST_RUN ?? process.pid}_lang_${Date.now() % 100000}`;
    await admin.query(`CREATE DATABASE "${database}"`);
    const url = withDatabase(serviceUrls().databaseUrl, database);
    dir = await mkdtemp(path.join(os.tmpdir(), "orderbot-customers-"));
    const source = path.join(PROJECT_ROOT, "prisma/migrations");
    for (const entry of await readdir(source, { withFileTypes: true }))
      if (!entry.isDirectory() || entry.name < MIGRATION)
        await cp(path.join(source, entry.name), path.join(dir, entry.name), { recursive: true });
    expect((await migrate({ url, dir })).applied).not.toContain(MIGRATION);

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

      expect((await migrate({ url, dir: source })).applied).toContain(MIGRATION);

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
