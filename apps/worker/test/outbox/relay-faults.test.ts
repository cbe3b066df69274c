// Acceptance: with the kit injecting 429s and 500s, every outbox message is delivered at least
// once and at most twice, and the pacing limits hold, measured from the kit's recording.
import { beforeAll, describe, expect, it } from "vitest";
import { maxInWindow, type FakeTelegram } from "@orderbot/fake-telegram";
import { metricValue } from "../support/metrics.ts";
import { waitUntil, type InProcessWorker } from "../support/worker.ts";
import { useWorkerShop } from "../support/shop.ts";

const fixture = useWorkerShop({ poolMax: 10, telegram: { seed: 7 } });
const { db } = fixture;
let tg: FakeTelegram;
const workers: InProcessWorker[] = [];

beforeAll(() => {
  tg = fixture.tg;
});

const GLOBAL_PER_SECOND = 5;

describe("outbox relay under injected faults", () => {
  it("delivers every message once or twice, within the per-chat, per-group and global limits", async () => {
    const users = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const user = tg.createUser();
        await user.send("/start");
        return user;
      }),
    );
    const admin = tg.createUser();
    const group = tg.createGroup({ title: "Shop operators", admins: [admin] });

    const rows: { dedupeKey: string; chatId: bigint; method: string; payload: object }[] = [];
    users.forEach((user, u) => {
      for (let i = 0; i < 5; i++)
        rows.push({
          dedupeKey: `u${u}-${i}`,
          chatId: BigInt(user.id),
          method: "sendMessage",
          payload: { text: `private ${u}-${i}` },
        });
    });
    for (let i = 0; i < 24; i++)
      rows.push({
        dedupeKey: `g-${i}`,
        chatId: BigInt(group.id),
        method: "sendMessage",
        payload: { text: `group ${i}` },
      });
    await db.outboxMessage.createMany({ data: rows });

    const rate429 = tg.faults.set({ method: "sendMessage", rate429: 0.15, retryAfter: 1 });
    const rate500 = tg.faults.set({ method: "sendMessage", rate500: 0.15 });

    // Two workers contend for the relay's leadership, as two replicas would.
    const env = {
      OUTBOX_INTERVAL_MS: "200",
      OUTBOX_GLOBAL_PER_SECOND: String(GLOBAL_PER_SECOND),
      OUTBOX_RETRY_BASE_MS: "200",
      OUTBOX_MAX_ATTEMPTS: "12",
    };
    workers.push(await fixture.startWorker(env), await fixture.startWorker(env));

    await waitUntil(
      "every outbox message sent",
      async () => (await db.outboxMessage.count({ where: { status: "SENT" } })) === rows.length,
      150_000,
      500,
    );

    // Faults really happened, of both kinds.
    expect(rate429.injected).toBeGreaterThan(0);
    expect(rate500.injected).toBeGreaterThan(0);

    // At least once, at most twice: count the calls that took effect, per text.
    const delivered = new Map<string, number>();
    for (const call of tg.callsTo("sendMessage").filter((c) => c.ok)) {
      const text = String(call.params.text);
      delivered.set(text, (delivered.get(text) ?? 0) + 1);
    }
    for (const row of rows) {
      const times = delivered.get((row.payload as { text: string }).text) ?? 0;
      expect(times, row.dedupeKey).toBeGreaterThanOrEqual(1);
      expect(times, row.dedupeKey).toBeLessThanOrEqual(2);
    }

    // Pacing, from the kit's recording, counting every call that reached it (failed ones too).
    const all = { includeFailed: true };
    for (const user of users) {
      const times = tg.calls
        .filter((c) => c.chatId === user.id && c.method === "sendMessage")
        .map((c) => c.at);
      for (let i = 1; i < times.length; i++)
        expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(1000);
      expect(tg.pacing(user.id, all).maxPerSecond).toBe(1);
    }
    const groupTimes = tg.calls
      .filter((c) => c.chatId === group.id && c.method === "sendMessage")
      .map((c) => c.at);
    expect(maxInWindow(groupTimes, 60_000)).toBeLessThanOrEqual(20);
    expect(tg.pacing(undefined, all).maxPerSecond).toBeLessThanOrEqual(GLOBAL_PER_SECOND);
    // The group had more than a minute's allowance, so the relay really waited on that limit.
    expect(groupTimes.length).toBeGreaterThan(20);
    expect(groupTimes.at(-1)! - groupTimes[0]!).toBeGreaterThanOrEqual(60_000);

    const sent = (
      await Promise.all(
        workers.map((w) =>
          metricValue(w.registry, "orderbot_outbox_sent_total", { method: "sendMessage" }),
        ),
      )
    ).reduce((a, b) => a + b);
    expect(sent).toBe(rows.length);
    const retries = async (reason: string) =>
      (
        await Promise.all(
          workers.map((w) => metricValue(w.registry, "orderbot_outbox_retries_total", { reason })),
        )
      ).reduce((a, b) => a + b);
    expect(await retries("rate_limited")).toBeGreaterThan(0);
    expect(await retries("transient")).toBeGreaterThan(0);
    expect(await db.outboxMessage.count({ where: { status: "DEAD" } })).toBe(0);
  }, 180_000);
});
