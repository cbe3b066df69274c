// Telegram accepts a call and never answers. Whoever acts on "the call has failed by now" must be
// able to trust it, whatever the retries below do: the poller and its parking here; group replies
// and the relay in group-reply-hangs.test.ts. The bot's API client as createBot bounds it
// (bot/api-calls.ts), against the fake Telegram's "hang" fault; parking in real PostgreSQL.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Api } from "grammy";
import type { Update } from "grammy/types";
import { createParkedUpdates } from "@orderbot/db";
import { createMetricsRegistry, silentLogger } from "@orderbot/platform";
import { startFakeTelegram, type FakeTelegram } from "@orderbot/fake-telegram";
import { useTestDatabase } from "@orderbot/testkit";
import { boundApiCalls, longPollSeconds } from "../src/bot/api-calls.ts";
import { createBotMetrics } from "../src/metrics.ts";
import { createParking } from "../src/updates/parking.ts";
import type { UpdateOutcome } from "../src/updates/pipeline.ts";
import { startPolling } from "../src/updates/polling.ts";

/** TELEGRAM_CALL_TIMEOUT_MS, short so that the hangs are short. */
const DEADLINE_MS = 1_000;
const BOT_ID = 4_343n;
const store = createParkedUpdates(useTestDatabase().db);

let tg: FakeTelegram;
let api: Api;
beforeEach(async () => {
  tg = await startFakeTelegram();
  api = new Api(tg.token, { apiRoot: tg.apiRoot, timeoutSeconds: DEADLINE_MS / 1000 });
  boundApiCalls(api, DEADLINE_MS);
});
afterEach(() => tg.close());

const until = async (check: () => boolean | Promise<boolean>, ms = 20_000) => {
  const deadline = Date.now() + ms;
  while (!(await check()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  return check();
};

function poll(processUpdate: (update: Update) => Promise<UpdateOutcome>, limit = 100) {
  return startPolling({
    api,
    processUpdate,
    logger: silentLogger,
    allowedUpdates: ["message"],
    timeoutSeconds: longPollSeconds(DEADLINE_MS),
    retryBaseMs: 100,
    retryMaxMs: 200,
    limit,
    parking: createParking({
      store,
      botId: BOT_ID,
      logger: silentLogger,
      gauge: createBotMetrics(createMetricsRegistry()).updatesParked,
    }),
  });
}

describe("Telegram hangs: the poller", () => {
  it("polls again after each hung getUpdates, and resumes within seconds once Telegram answers", async () => {
    const handled = new Set<number>();
    const poller = poll(async (update) => (handled.add(update.update_id), "handled"));
    try {
      const user = tg.createUser();
      const before = await user.send("before");
      expect(await until(() => handled.has(before.updateId))).toBe(true);
      const hang = tg.faults.set({ method: "getUpdates", hang: true });
      // Each hung poll is given up at the deadline and the next one starts: without the bound,
      // the retries would wait 3, then 6, then 12 s between them.
      expect(await until(() => hang.injected >= 3)).toBe(true);
      hang.remove();
      const after = await user.send("after");
      // A deadline and the poller's 1 s pause; the retries' back-off would be 12 s by now.
      expect(await until(() => handled.has(after.updateId), 6 * DEADLINE_MS)).toBe(true);
    } finally {
      await poller.stop();
    }
  });

  it("parks an update whose reply hangs, and every other chat goes on", async () => {
    const stuck = tg.createUser();
    tg.faults.set({ method: "sendMessage", chatId: stuck.chatId, hang: true });
    const handled = new Set<number>();
    const poller = poll(async (update) => {
      const chat = update.message!.chat.id;
      await api.sendMessage(chat, "an answer");
      handled.add(update.update_id);
      return "handled";
    }, 3);
    const first = await stuck.send("/start");
    try {
      // A full batch of 3 behind the stuck update: the offset cannot move until it is parked.
      const others: { updateId: number }[] = [];
      for (let i = 0; i < 5; i++) others.push(await tg.createUser().send(`message ${i}`));
      expect(await until(() => others.every((o) => handled.has(o.updateId)))).toBe(true);
      expect((await store.list(BOT_ID)).map((p) => p.updateId)).toEqual([first.updateId]);
      expect(handled.has(first.updateId)).toBe(false);
    } finally {
      await poller.stop();
      await store.remove(BOT_ID, first.updateId);
    }
  });
});
