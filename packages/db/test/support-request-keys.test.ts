// The expand step of migration 20261209020000_support_request_keys: while the previous release runs
// beside this one, a request it opens by (chat, message id) and one this release opens by its key
// are the same request, whichever side wrote it first.
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@orderbot/testkit";
import { useEmptyDatabases } from "./support/empty-databases.ts";
import { rowsAcrossMigration, useMigrationsBefore } from "./support/migrations-before.ts";

const { db } = useTestDatabase();
const MIGRATION = "20261209020000_support_request_keys";
const emptyDatabase = useEmptyDatabases("srk");
const migrationsBefore = useMigrationsBefore();
const CHAT = 7_100_000_001n;

interface Keys {
  key: string | null;
  message: number | null;
}

const keysOf = (id: number) => db.$queryRaw<Keys[]>`
  SELECT request_key AS key, source_message_id AS message FROM support_requests WHERE id = ${id}`;

/** The previous release's insert: it knows the message id and nothing of keys. */
const previousInsert = (message: number) => db.$queryRaw<{ id: number }[]>`
  INSERT INTO support_requests (user_id, chat_id, topic, text, source_message_id)
  VALUES (${CHAT}, ${CHAT}, 'question', 'hi', ${message}) RETURNING id`;

const insert = (requestKey: string) =>
  db.supportRequest.create({
    data: { userId: CHAT, chatId: CHAT, topic: "question", text: "hi", requestKey },
  });

describe("support request keys during the upgrade", () => {
  it("give the previous release's request its key, so this release finds it", async () => {
    const [row] = await previousInsert(41);
    expect(await keysOf(row!.id)).toEqual([{ key: `ask:${CHAT}:41`, message: 41 }]);
    await expect(insert(`ask:${CHAT}:41`)).rejects.toThrow();
  });

  it("give this release's request the message id, so the previous release finds it", async () => {
    const { id } = await insert(`ask:${CHAT}:42`);
    expect(await keysOf(id)).toEqual([{ key: `ask:${CHAT}:42`, message: 42 }]);
    await expect(previousInsert(42)).rejects.toThrow();
  });

  it("leave a key of another form alone", async () => {
    const { id } = await insert("question:7");
    expect(await keysOf(id)).toEqual([{ key: "question:7", message: null }]);
  });

  it("are filled for requests opened before it by the migration", async () => {
    const rows = await rowsAcrossMigration(
      await emptyDatabase(),
      await migrationsBefore(MIGRATION),
      `INSERT INTO support_requests (user_id, chat_id, topic, text, source_message_id)
       VALUES (5, 5, 'question', 'a', 9), (5, 5, 'paysupport', 'b', NULL)`,
      `SELECT request_key, source_message_id FROM support_requests ORDER BY id`,
    );
    expect(rows).toEqual([
      { request_key: "ask:5:9", source_message_id: 9 },
      { request_key: null, source_message_id: null },
    ]);
  });
});
