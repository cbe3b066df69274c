// The outbox's home (src/outbox/claims.ts): relays on connections of their own claim due messages
// with one `FOR UPDATE SKIP LOCKED` statement, so each message goes to one relay and is sent once.
// The same relays reading the due rows first and writing after (a barrier between the two, so the
// race is certain) send the same messages several times: the check is not vacuous.
import { afterAll, describe, expect, it } from "vitest";
import { createDatabase, type Database } from "@orderbot/db";
import { barrier, useTestDatabase } from "@orderbot/testkit";
import { claimDueOutbox, enqueueOutbox, markOutboxSent } from "../../src/outbox/index.ts";

const testDb = useTestDatabase();
const RELAYS = 6;
const BATCH = 7;
const relays: Database[] = [];
afterAll(() => Promise.all(relays.map((db) => db.$disconnect())));

function relayClients(): Database[] {
  while (relays.length < RELAYS) relays.push(createDatabase({ url: testDb.url, poolMax: 2 }));
  return relays;
}

async function queue(tag: string, count: number): Promise<void> {
  await enqueueOutbox(
    testDb.db,
    Array.from({ length: count }, (_, i) => ({
      dedupeKey: `${tag}-${i}`,
      chatId: BigInt(9_000 + i),
      method: "notify" as const,
      payload: { template: "order-expired" as const, params: { orderId: `${tag}${i}` } },
    })),
  );
}

/** How often each message was sent, by message id. */
function tally(sends: number[]): number[] {
  const counts = new Map<number, number>();
  for (const id of sends) counts.set(id, (counts.get(id) ?? 0) + 1);
  return [...counts.values()];
}

describe("the outbox claim", () => {
  it(`sends each of 120 messages once across ${RELAYS} racing relays`, async () => {
    await queue("claimed", 120);
    const sends: number[] = [];
    await Promise.all(
      relayClients().map(async (db) => {
        for (;;) {
          const claimed = await claimDueOutbox(db, { limit: BATCH, claimMs: 60_000 });
          if (claimed.length === 0) return;
          for (const message of claimed) {
            sends.push(message.id); // the send, then its settlement under the claim
            expect(await markOutboxSent(db, message)).toBe(true);
          }
        }
      }),
    );
    expect(sends).toHaveLength(120);
    expect(tally(sends).every((n) => n === 1)).toBe(true);
    expect(await testDb.db.outboxMessage.count({ where: { status: "PENDING" } })).toBe(0);
  });

  it("sends messages several times when relays read the due rows, then write", async () => {
    await queue("naive", BATCH);
    const sends: number[] = [];
    const allRead = barrier(RELAYS);
    await Promise.all(
      relayClients().map(async (db) => {
        const due = await db.$queryRaw<{ id: number }[]>`
          SELECT id FROM outbox_messages WHERE status = 'PENDING' AND dedupe_key LIKE 'naive-%'
           ORDER BY id LIMIT ${BATCH}`;
        await allRead();
        for (const { id } of due) {
          sends.push(id);
          await db.$executeRaw`UPDATE outbox_messages SET status = 'SENT' WHERE id = ${id}`;
        }
      }),
    );
    expect(tally(sends)).toEqual(Array.from({ length: BATCH }, () => RELAYS));
  });
});
