// One send budget per bot, shared through real Redis by several instances, each with its own
// connection and its own grammY client bounded as createBot bounds it (bot/api-calls.ts). The fake
// Telegram enforces the same limits and records what it received: the counts per window, the 429s
// and the order of arrival are what these tests assert, never a duration.
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { Api, GrammyError } from "grammy";
import {
  createMetricsRegistry,
  createSendBudget,
  createSendBudgetMetrics,
  Redis,
  SEND_PRIORITY,
  TELEGRAM_SEND_LIMITS,
  SEND_BUDGET_METRICS,
  type Registry,
  type SendBudget,
  type SendPriority,
} from "@orderbot/platform";
import { maxInWindow, startFakeTelegram, type FakeTelegram } from "@orderbot/fake-telegram";
import { useTestRedis } from "@orderbot/testkit";
import { boundApiCalls } from "../src/bot/api-calls.ts";

const DEADLINE_MS = 20_000;
/** Small limits, so that a few dozen messages fill several windows. */
const LIMITS = {
  ...TELEGRAM_SEND_LIMITS,
  perSecond: 10,
  groupPerWindow: 4,
  groupWindowMs: 2_000,
};

const t = useTestRedis();
const connections: Redis[] = [];
afterAll(() => connections.forEach((c) => c.disconnect()));

let tg: FakeTelegram;
let prefix: string;
let run = 0;
beforeEach(async () => {
  tg = await startFakeTelegram({
    floodLimits: {
      global: { limit: LIMITS.perSecond, windowMs: 1_000 },
      perChat: { limit: LIMITS.chatPerWindow, windowMs: LIMITS.chatWindowMs },
      perGroup: { limit: LIMITS.groupPerWindow, windowMs: LIMITS.groupWindowMs },
    },
  });
  prefix = `${t.namespace}:${run++}`;
});
afterEach(() => tg.close());

/**
 * A bot or worker instance: its own Redis connection, budget and Bot API client; the client takes
 * from the budget itself unless `raw` (the caller takes, as the relay does).
 */
function instance(raw = false, url = t.url): { budget: SendBudget; api: Api; registry: Registry } {
  const redis = new Redis(url, { maxRetriesPerRequest: 0, enableOfflineQueue: url === t.url });
  redis.on("error", () => undefined);
  connections.push(redis);
  const registry = createMetricsRegistry();
  const metrics = createSendBudgetMetrics(registry);
  const budget = createSendBudget({
    redis,
    inFlightMs: 20_000,
    botId: "8000000001",
    prefix,
    limits: LIMITS,
    metrics,
  });
  const api = new Api(tg.token, { apiRoot: tg.apiRoot });
  if (!raw) boundApiCalls(api, DEADLINE_MS, budget);
  return { budget, api, registry };
}

const count = async (registry: Registry, name: string, labels: Record<string, string> = {}) =>
  (await registry.getSingleMetric(name)!.get()).values
    .filter((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l))
    .reduce((sum, v) => sum + v.value, 0);

async function startedUsers(count: number): Promise<number[]> {
  const users = Array.from({ length: count }, () => tg.createUser());
  await Promise.all(users.map((u) => u.send("/start")));
  return users.map((u) => u.id);
}

const sent = (chatId?: number) =>
  tg.calls.filter(
    (c) => c.method === "sendMessage" && (chatId === undefined || c.chatId === chatId),
  );

describe("shared send budget", () => {
  it("keeps three instances sending at once within the bot's, a chat's and a group's limits", async () => {
    const instances = [instance(), instance(), instance()];
    const many = await startedUsers(18);
    const [busy] = await startedUsers(1);
    const group = tg.createGroup({ title: "Ops", creator: tg.createUser() }).id;
    await Promise.all(
      instances.flatMap(({ api }, i) => [
        ...many.slice(i * 6, i * 6 + 6).map((chat) => api.sendMessage(chat, "bulk")),
        ...[1, 2].map(() => api.sendMessage(busy!, "to one chat")),
        ...[1, 2].map(() => api.sendMessage(group, "to the group")),
      ]),
    );
    expect(tg.calls.filter((c) => c.errorCode === 429)).toEqual([]);
    expect(sent().filter((c) => c.ok)).toHaveLength(30);
    expect(tg.pacing(undefined).maxPerSecond).toBeLessThanOrEqual(LIMITS.perSecond);
    const times = (chatId: number) => sent(chatId).map((c) => c.at);
    expect(maxInWindow(times(busy!), LIMITS.chatWindowMs)).toBeLessThanOrEqual(
      LIMITS.chatPerWindow,
    );
    expect(maxInWindow(times(group), LIMITS.groupWindowMs)).toBeLessThanOrEqual(
      LIMITS.groupPerWindow,
    );
  });

  it("pauses every instance after one gets a 429, for its whole retry_after", async () => {
    const [a, b] = [instance(), instance()];
    const relay = instance().budget;
    const [first, second] = await startedUsers(2);
    // Longer than the call deadline: the call fails now, and so does every other send until then.
    tg.faults.refuseNext("sendMessage", first!);
    await expect(a.api.sendMessage(first!, "refused")).rejects.toMatchObject({ error_code: 429 });
    const refusal = b.api.sendMessage(second!, "held back");
    await expect(refusal).rejects.toBeInstanceOf(GrammyError);
    await expect(refusal).rejects.toMatchObject({ error_code: 429 });
    // Only the first call reached Telegram: the other was refused by the shared pause.
    expect(sent()).toHaveLength(1);
    const taken = await relay.take(second!, SEND_PRIORITY.notice, { maxWaitMs: 1_000 });
    expect(taken).toMatchObject({ kind: "later", reason: "paused" });
    expect(await count(a.registry, SEND_BUDGET_METRICS.pauses)).toBe(1);
    const later = { priority: "0", outcome: "later" };
    expect(await count(b.registry, SEND_BUDGET_METRICS.takes, later)).toBe(1);
  });

  it("serves replies while bulk sends from two instances saturate the budget", async () => {
    const [bulkA, bulkB, replies] = [instance(true), instance(true), instance(true)];
    const recipients = await startedUsers(24);
    const [shopper] = await startedUsers(1);
    const send = (at: { budget: SendBudget; api: Api }, chat: number, priority: SendPriority) =>
      at.budget.take(chat, priority, { maxWaitMs: DEADLINE_MS }).then(async (taken) => {
        if (taken.kind !== "taken") throw new Error(`not taken: ${taken.kind}`);
        await at.api.raw.sendMessage({ chat_id: chat, text: `p${priority}` });
        await at.budget.answered(taken.place);
      });
    const bulk = recipients.map((chat, i) => send(i % 2 ? bulkA : bulkB, chat, SEND_PRIORITY.bulk));
    await tg.waitForCall("sendMessage");
    await Promise.all([1, 2].map(() => send(replies, shopper!, SEND_PRIORITY.reply)));
    await Promise.all(bulk);
    const order = sent().map((c) => c.chatId);
    const lastReply = order.lastIndexOf(shopper!);
    // The replies went out while the bulk backlog still filled more than a second of the budget.
    expect(order.length - 1 - lastReply).toBeGreaterThanOrEqual(LIMITS.perSecond);
    expect(tg.calls.filter((c) => c.errorCode === 429)).toEqual([]);
  });

  it("lets the bot's replies go on when Redis does not answer", async () => {
    const [shopper] = await startedUsers(1);
    // Nothing listens on port 1: every budget command fails at once.
    const cut = instance(false, "redis://127.0.0.1:1");
    await cut.api.sendMessage(shopper!, "still answered");
    expect(sent(shopper).filter((c) => c.ok)).toHaveLength(1);
    const unavailable = { priority: "0", outcome: "unavailable" };
    expect(await count(cut.registry, SEND_BUDGET_METRICS.takes, unavailable)).toBe(1);
  });
});
