// Migration 20261207010000_outbox_events on an outbox with notices still to send: each PENDING
// notice keeps its event and ids and loses what the worker now works out when it sends
// (language, buttons, a paid alert's pre-rendered items); a sent row is history and stays.
import path from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { migrate } from "@orderbot/db";
import { PROJECT_ROOT } from "@orderbot/testkit";
import { useEmptyDatabases } from "./support/empty-databases.ts";
import { useMigrationsBefore } from "./support/migrations-before.ts";

const MIGRATION = "20261207010000_outbox_events";
const emptyDatabase = useEmptyDatabases("evt");
const migrationsBefore = useMigrationsBefore();

const PAID = {
  template: "operator-order-paid",
  params: {
    orderId: "AB23CD45",
    amountMinor: 20,
    currency: "XTR",
    itemsEn: "• Tea × 2: 20 ⭐\n🔑 2: ••••1111, ••••2222",
    itemsZh: "• 茶 × 2：20 ⭐\n🔑 2: ••••1111, ••••2222",
    customer: "Ann · ••••0001",
  },
  locale: "zh",
  buttons: [{ label: "btn-fulfil-processing", data: "fm:AB23CD45:PROCESSING" }],
};
const EXPIRED = { template: "order-expired", params: { orderId: "AB23CD45" }, locale: "en" };

describe(`migration ${MIGRATION}`, () => {
  it("keeps each pending notice's event and ids, and drops its words, language and buttons", async () => {
    const url = await emptyDatabase();
    expect((await migrate({ url, dir: await migrationsBefore(MIGRATION) })).applied).not.toContain(
      MIGRATION,
    );
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const insert = (key: string, status: string, payload: object) =>
        client.query(
          `INSERT INTO outbox_messages (dedupe_key, chat_id, method, payload, status)
           VALUES ($1, -1001, 'notify', $2, $3)`,
          [key, JSON.stringify(payload), status],
        );
      await insert("paid", "PENDING", PAID);
      await insert("expired", "PENDING", EXPIRED);
      await insert("sent", "SENT", EXPIRED);

      const all = path.join(PROJECT_ROOT, "prisma/migrations");
      expect((await migrate({ url, dir: all })).applied).toContain(MIGRATION);

      const { rows } = await client.query<{ dedupe_key: string; payload: unknown }>(
        `SELECT dedupe_key, payload FROM outbox_messages ORDER BY id`,
      );
      expect(rows).toEqual([
        {
          dedupe_key: "paid",
          payload: {
            template: "operator-order-paid",
            params: {
              orderId: "AB23CD45",
              amountMinor: 20,
              currency: "XTR",
              customer: "Ann · ••••0001",
              codeTails: "••••1111, ••••2222",
            },
          },
        },
        { dedupe_key: "expired", payload: { template: "order-expired", params: EXPIRED.params } },
        { dedupe_key: "sent", payload: EXPIRED },
      ]);
    } finally {
      await client.end();
    }
  });
});
