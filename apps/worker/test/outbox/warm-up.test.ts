// A relay beginning a term learns the recent sends from the outbox table: every leader's, so that a
// group's 20-a-minute limit holds across a change of leader, also for a process leading again.
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@orderbot/testkit";
import { createPacer, TELEGRAM_LIMITS } from "../../src/outbox/pacer.ts";
import { testRelay } from "../support/relay.ts";

const testDb = useTestDatabase({ poolMax: 4 });

const GROUP = -1_001_234_567_890n;

describe("warming up a relay's pacer", () => {
  it("learns a group's sends by another leader even when it remembers the group from its own earlier term", async () => {
    const now = Date.now();
    // Another leader sent 20 messages to the group in the last 30 s.
    await testDb.db.$executeRaw`
      INSERT INTO outbox_messages (dedupe_key, chat_id, method, payload, status, attempts, sent_at, next_attempt_at)
      SELECT 'other-leader:' || i, ${GROUP}, 'sendMessage', '{"text":"x"}'::jsonb, 'SENT', 1,
             timezone('UTC', now()) - make_interval(secs => 30 - i), timezone('UTC', now())
        FROM generate_series(1, 20) AS i`;
    const pacer = createPacer({ ...TELEGRAM_LIMITS, globalPerSecond: 30, marginMs: 100 });
    pacer.book(GROUP, now - 50_000); // this process's own send, in its earlier term
    pacer.answered(GROUP, now - 50_000, now - 49_900);
    expect(pacer.knows(GROUP)).toBe(true);

    const relay = testRelay(testDb.db, { pacer }); // no call is made while warming up
    expect(await relay.warmUp()).toBe(20);
    // The group's minute is full: its next slot is when the oldest of the 20 leaves the window.
    expect(pacer.nextSlot(GROUP, Date.now())).toBeGreaterThan(Date.now() + 25_000);
  });
});
