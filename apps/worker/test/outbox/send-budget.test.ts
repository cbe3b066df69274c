// The relay takes from the bot's send budget in real Redis, shared with the bots: a pause another
// instance set holds its sends back, and a 429 it gets pauses every other instance.
import { afterAll, describe, expect, it } from "vitest";
import { GrammyError } from "grammy";
import {
  createSendBudget,
  Redis,
  SEND_PRIORITY,
  TELEGRAM_SEND_LIMITS,
  type SendBudget,
} from "@orderbot/platform";
import { useTestDatabase, useTestRedis } from "@orderbot/testkit";
import type { ApiCall } from "../../src/outbox/api-call.ts";
import { drainOnce, testRelay } from "../support/relay.ts";

const testDb = useTestDatabase({ poolMax: 4 });
const t = useTestRedis();
const connections: Redis[] = [];
afterAll(() => connections.forEach((c) => c.disconnect()));

let run = 0;
/** Budgets of one bot, each on its own connection: other bot or worker instances. */
function budgets(count: number): SendBudget[] {
  const prefix = `${t.namespace}:${run++}`;
  return Array.from({ length: count }, () => {
    const redis = new Redis(t.url, { maxRetriesPerRequest: 1 });
    connections.push(redis);
    return createSendBudget({
      redis,
      inFlightMs: 20_000,
      botId: "42",
      prefix,
      limits: TELEGRAM_SEND_LIMITS,
    });
  });
}

const queue = (chatId: bigint, key: string) =>
  testDb.db.outboxMessage.create({
    data: { dedupeKey: key, chatId, method: "sendMessage", payload: { text: "Your order" } },
  });

describe("the relay and the shared send budget", () => {
  it("sends nothing while another instance's 429 pauses the bot", async () => {
    const [bot, worker] = budgets(2);
    await bot!.pause(60_000);
    await queue(7001n, "paused-1");
    const calls: ApiCall[] = [];
    const relay = testRelay(testDb.db, {
      sendBudget: worker!,
      callApi: async (call) => void calls.push(call),
    });
    const summary = await drainOnce(relay);
    expect(calls).toEqual([]);
    expect(summary).toMatchObject({ claimed: 1, sent: 0, deferred: 1 });
  });

  it("pauses every instance when Telegram answers its send with a 429", async () => {
    const [bot, worker] = budgets(2);
    await queue(7002n, "limited-1");
    const tooMany = new GrammyError(
      "Call to 'sendMessage' failed!",
      {
        ok: false,
        error_code: 429,
        description: "Too Many Requests: retry after 60",
        parameters: { retry_after: 60 },
      },
      "sendMessage",
      {},
    );
    const relay = testRelay(testDb.db, {
      sendBudget: worker!,
      callApi: async () => {
        throw tooMany;
      },
    });
    await drainOnce(relay);
    const taken = await bot!.take(7003n, SEND_PRIORITY.reply, { maxWaitMs: 1_000 });
    expect(taken).toMatchObject({ kind: "later", reason: "paused" });
  });
});
