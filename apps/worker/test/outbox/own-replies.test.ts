// A group reply the bot left to the relay (its direct send had no room, or failed) is sent by the
// relay, which books it in its pacer as it sends. The table then lists it among the bots' replies
// (core/outbox/group-replies.ts): learnt again, it would take two of the group's 20 a minute.
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@orderbot/testkit";
import { createPacer } from "../../src/outbox/pacer.ts";
import { drainOnce, testRelay } from "../support/relay.ts";

const testDb = useTestDatabase({ poolMax: 4 });

const GROUP = -1_001_234_567_891n;
/** Two a window: one reply counted twice fills it. */
const LIMITS = {
  chatIntervalMs: 100,
  groupPerWindow: 2,
  groupWindowMs: 60_000,
  globalPerSecond: 30,
  marginMs: 0,
};

describe("a group reply the relay sent itself", () => {
  it("takes one place in the group's budget, not two", async () => {
    await testDb.db.$executeRaw`
      INSERT INTO outbox_messages (dedupe_key, chat_id, method, payload, status, attempts, next_attempt_at)
      VALUES ('reply:-1001234567891:1:0', ${GROUP}, 'sendMessage', '{"text":"Applied."}'::jsonb,
              'PENDING', 1, timezone('UTC', now()))`;
    const pacer = createPacer(LIMITS);
    const sent: unknown[] = [];
    const relay = testRelay(testDb.db, {
      callApi: async (call) => (sent.push(call), { message_id: 1 }),
      pacer,
    });
    const run = () => drainOnce(relay);
    expect((await run()).sent).toBe(1);
    await run(); // a later round learns the bots' replies from the table
    expect(sent).toHaveLength(1);
    // One of two places taken: the next message waits for the chat's interval, not the window.
    expect(pacer.nextSlot(GROUP, Date.now())).toBeLessThan(Date.now() + 10_000);
  });
});
