// The expand step of migration 20261207030000_order_message_columns: while the previous release
// runs beside this one, orders' four message columns (which it reads and writes) and
// order_messages (which this release does) stay equal, whichever side writes.
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@orderbot/testkit";
import { useEmptyDatabases } from "./support/empty-databases.ts";
import { rowsAcrossMigration, useMigrationsBefore } from "./support/migrations-before.ts";
import { unique } from "./support/rows.ts";

const { db } = useTestDatabase();
const MIGRATION = "20261207030000_order_message_columns";
const emptyDatabase = useEmptyDatabases("omc");
const migrationsBefore = useMigrationsBefore();

async function order(): Promise<string> {
  const created = await db.order.create({
    data: {
      publicId: unique("M"),
      userId: 7_000_000_001n,
      chatId: 7_000_000_001n,
      status: "RESERVED",
      totalMinor: 20,
      currency: "XTR",
      expiresAt: new Date(Date.now() + 60_000),
      idempotencyKey: unique("idem"),
    },
  });
  return created.publicId;
}

interface Copy {
  card: number | null;
  invoice: number | null;
  claimedBy: string | null;
}

async function copies(publicId: string): Promise<{ orders: Copy[]; messages: Copy[] }> {
  const orders = await db.$queryRaw<Copy[]>`
    SELECT card_message_id AS card, invoice_message_id AS invoice, invoice_claimed_by AS "claimedBy"
      FROM orders WHERE public_id = ${publicId}`;
  const messages = await db.$queryRaw<Copy[]>`
    SELECT card_message_id AS card, invoice_message_id AS invoice, invoice_claimed_by AS "claimedBy"
      FROM order_messages WHERE order_public_id = ${publicId}`;
  return { orders, messages };
}

describe("orders' message columns during the upgrade", () => {
  it("copy what this release writes to order_messages", async () => {
    const id = await order();
    await db.$executeRaw`
      INSERT INTO order_messages (order_public_id, card_message_id, invoice_sent_at, invoice_claimed_by)
      VALUES (${id}, 7, timezone('UTC', now()), 'press-1')`;
    await db.orderMessages.update({ where: { orderPublicId: id }, data: { invoiceMessageId: 8 } });
    const expected = [{ card: 7, invoice: 8, claimedBy: "press-1" }];
    expect(await copies(id)).toEqual({ orders: expected, messages: expected });
  });

  it("are copied to order_messages when the previous release writes them", async () => {
    const id = await order();
    await db.$executeRaw`
      UPDATE orders SET card_message_id = 5, invoice_claimed_by = 'press-2' WHERE public_id = ${id}`;
    await db.$executeRaw`UPDATE orders SET invoice_message_id = 6 WHERE public_id = ${id}`;
    const expected = [{ card: 5, invoice: 6, claimedBy: "press-2" }];
    expect(await copies(id)).toEqual({ orders: expected, messages: expected });
  });

  it("are filled from order_messages by the migration", async () => {
    const rows = await rowsAcrossMigration(
      await emptyDatabase(),
      await migrationsBefore(MIGRATION),
      `INSERT INTO orders (public_id, user_id, chat_id, status, total_minor, currency, expires_at,
                           idempotency_key, updated_at)
       VALUES ('AB23CD45', 1, 1, 'RESERVED', 20, 'XTR', now(), '1:k', now());
       INSERT INTO order_messages (order_public_id, card_message_id, invoice_message_id)
       VALUES ('AB23CD45', 3, 4)`,
      `SELECT card_message_id, invoice_message_id FROM orders WHERE public_id = 'AB23CD45'`,
    );
    expect(rows).toEqual([{ card_message_id: 3, invoice_message_id: 4 }]);
  });
});
