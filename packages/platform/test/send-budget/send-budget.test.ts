// The budget's Lua on real Redis, without waiting: what each priority may take of one window, and
// a pause that a shorter retry_after never shortens.
import { afterAll, describe, expect, it } from "vitest";
import { useTestRedis } from "@orderbot/testkit";
import { Redis } from "../../src/redis.ts";
import {
  createSendBudget,
  globalLimitFor,
  SEND_PRIORITY,
  TELEGRAM_SEND_LIMITS,
  type SendPriority,
} from "../../src/send-budget/send-budget.ts";

const t = useTestRedis();
const connections: Redis[] = [];
afterAll(() => connections.forEach((c) => c.disconnect()));

/** A minute's margin on every window: nothing leaves a window while a test runs, however slow. */
const STILL = { ...TELEGRAM_SEND_LIMITS, marginMs: 60_000 };

let run = 0;
function budget(limits = STILL) {
  const redis = new Redis(t.url, { maxRetriesPerRequest: 1 });
  connections.push(redis);
  return createSendBudget({
    redis,
    inFlightMs: 20_000,
    botId: "42",
    prefix: `${t.namespace}:${run++}`,
    limits,
  });
}

/** How many of `count` takes (to distinct private chats) the window lets through at once. */
async function takenAtOnce(b: ReturnType<typeof budget>, priority: SendPriority, count: number) {
  let taken = 0;
  for (let chat = 1; chat <= count; chat++)
    if ((await b.take(chat * 1000 + run, priority, { maxWaitMs: 0 })).kind === "taken") taken++;
  return taken;
}

describe("send budget script", () => {
  it("lets bulk sends fill only what they leave to notices and replies", async () => {
    const b = budget({ ...STILL, perSecond: 30 });
    expect(await takenAtOnce(b, SEND_PRIORITY.bulk, 40)).toBe(globalLimitFor(30, 2));
    expect(await takenAtOnce(b, SEND_PRIORITY.notice, 40)).toBe(3);
    expect(await takenAtOnce(b, SEND_PRIORITY.reply, 40)).toBe(3);
    expect(await takenAtOnce(b, SEND_PRIORITY.reply, 1)).toBe(0);
  });

  it("gives a private chat three messages per window and a group its own limit", async () => {
    const b = budget();
    const takes = (chat: number, n: number) =>
      Promise.all(Array.from({ length: n }, () => b.take(chat, 0, { maxWaitMs: 0 })));
    const kinds = (results: { kind: string }[]) => results.filter((r) => r.kind === "taken");
    expect(kinds(await takes(7, 5))).toHaveLength(3);
    expect(kinds(await takes(-100, 25))).toHaveLength(20);
  });

  it("keeps the longest pause: a shorter retry_after does not shorten it", async () => {
    const b = budget();
    await b.pause(60_000);
    await b.pause(1_000);
    const taken = await b.take(7, SEND_PRIORITY.reply, { maxWaitMs: 10_000 });
    expect(taken).toMatchObject({ kind: "later", reason: "paused" });
    expect(taken.kind === "later" && taken.waitMs).toBeGreaterThan(10_000);
  });
});
