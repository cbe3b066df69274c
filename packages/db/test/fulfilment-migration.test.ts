// Migration 20261203010000_fulfilment on a database that already has orders: FULFILLED rows
// become DELIVERED with one timeline entry each, and nothing else moves.
import path from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { migrate } from "@orderbot/db";
import { PROJECT_ROOT } from "@orderbot/testkit";
import { useEmptyDatabases } from "./support/empty-databases.ts";
import { useMigrationsBefore } from "./support/migrations-before.ts";

const MIGRATION = "20261203010000_fulfilment";
const emptyDatabase = useEmptyDatabases("ful");
const migrationsBefore = useMigrationsBefore();

describe(`migration ${MIGRATION}`, () => {
  it("renames FULFILLED to DELIVERED, gives each such order its timeline entry, and leaves the rest", async () => {
    const url = await emptyDatabase();
    const before = await migrationsBefore(MIGRATION);
    expect((await migrate({ url, dir: before })).applied).not.toContain(MIGRATION);

    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const statuses = ["FULFILLED", "FULFILLED", "PAID", "REFUNDED", "RESERVED"];
      for (const [i, status] of statuses.entries()) {
        await client.query(
          `INSERT INTO orders (public_id, user_id, chat_id, status, total_minor, currency, expires_at,
                               idempotency_key, updated_at)
           VALUES ($1, 7000000001, 7000000001, $2, 10, 'XTR', now(), $3, $4)`,
          [`ORDER${i + 2}AB`, status, `k${i}`, new Date(Date.UTC(2026, 10, 20 + i))],
        );
      }

      const result = await migrate({ url, dir: path.join(PROJECT_ROOT, "prisma/migrations") });
      expect(result.applied).toContain(MIGRATION);

      const { rows: orders } = await client.query<{ public_id: string; status: string }>(
        `SELECT public_id, status::text AS status FROM orders ORDER BY public_id`,
      );
      expect(orders.map((o) => o.status)).toEqual([
        "DELIVERED",
        "DELIVERED",
        "PAID",
        "REFUNDED",
        "RESERVED",
      ]);
      const { rows: timeline } = await client.query(
        `SELECT o.public_id, t.event, t.from_status::text AS "from", t.to_status::text AS "to",
                t.actor, t.note, t.created_at = o.updated_at AS "atLastChange"
           FROM order_timeline t JOIN orders o ON o.id = t.order_id ORDER BY o.public_id`,
      );
      // One entry per FULFILLED order: moved to DELIVERED by the migration, dated its last change.
      const delivered = (publicId: string) => ({
        public_id: publicId,
        event: "move",
        from: "PAID",
        to: "DELIVERED",
        actor: "migration",
        note: null,
        atLastChange: true,
      });
      expect(timeline).toEqual([delivered("ORDER2AB"), delivered("ORDER3AB")]);
      // The old word is gone; the new states can be used once the migration committed.
      const { rows: labels } = await client.query<{ label: string }>(
        `SELECT enumlabel AS label FROM pg_enum e JOIN pg_type t ON t.oid = e.enumtypid
          WHERE t.typname = 'OrderStatus' ORDER BY e.enumsortorder`,
      );
      expect(labels.map((l) => l.label)).toEqual([
        "RESERVED",
        "PAYING",
        "PAID",
        "PROCESSING",
        "SHIPPED",
        "DELIVERED",
        "CANCELLED",
        "EXPIRED",
        "REFUNDED",
      ]);
      await client.query(`UPDATE orders SET status = 'SHIPPED' WHERE public_id = 'ORDER4AB'`);
    } finally {
      await client.end();
    }
  });
});
