// Telegram hangs while the bot replies in the operator group. The reply's booking hides it from
// the relay only while the bot's call may still succeed: the call's deadline must hold, or both
// send it. The whole bot in this process with TELEGRAM_CALL_TIMEOUT_MS short, a real worker
// process, PostgreSQL and Redis; the fake Telegram's "hang" fault on the group.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SimulatedGroup, SimulatedUser } from "@orderbot/fake-telegram";
import { spawnWorker, type WorkerProcess } from "@orderbot/testkit";
import { OWNER_ID, startBotHarness, type BotHarness } from "./support/harness.ts";

let h: BotHarness;
let worker: WorkerProcess | undefined;
let owner: SimulatedUser;
let group: SimulatedGroup;

beforeAll(async () => {
  h = await startBotHarness({ env: { TELEGRAM_CALL_TIMEOUT_MS: "1000" } });
  owner = h.kit.createUser({ id: OWNER_ID, firstName: "Owner", languageCode: "en" });
  group = h.kit.createGroup({ title: "Ops", creator: owner });
  await h.shop.groups.bind({ chatId: group.id, title: "Ops", boundBy: OWNER_ID });
  worker = await spawnWorker("hang-worker", h.services, {
    OUTBOX_INTERVAL_MS: "100",
    OUTBOX_SEND_TIMEOUT_MS: "1000",
    OUTBOX_RETRY_BASE_MS: "200",
    OUTBOX_RETRY_MAX_MS: "500",
  });
}, 60_000);
afterAll(async () => {
  await worker?.app.stop();
  await h?.close();
});

const until = async (check: () => boolean | Promise<boolean>, ms = 30_000) => {
  const deadline = Date.now() + ms;
  while (!(await check()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return check();
};

describe("Telegram hangs on a group reply", () => {
  it("sends the reply once: the bot gives up by its deadline, and the relay sends it", async () => {
    const hang = h.kit.faults.set({ method: "sendMessage", chatId: group.id, hang: true });
    const help = await owner.send("/help", { in: group });
    // The bot's call and the relay's first tries have hung. Without the deadline the bot would
    // still be retrying when its booking lapses, and both would send once Telegram answers.
    expect(await until(() => hang.injected >= 4)).toBe(true);
    hang.remove();
    expect((await help.handled()).attempts).toHaveLength(1);
    const sent = () => h.kit.callsTo("sendMessage").filter((c) => c.chatId === group.id && c.ok);
    expect(await until(() => sent().length > 0)).toBe(true);
    const row = () =>
      h.db.outboxMessage.findFirst({ where: { dedupeKey: { startsWith: "reply:" } } });
    expect(await until(async () => (await row())?.status === "SENT")).toBe(true);
    expect(sent()).toHaveLength(1);
  }, 60_000);
});
