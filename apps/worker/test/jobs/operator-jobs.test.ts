// The operator-side jobs, each run by two workers at once: admin lists refreshed once per group
// under the group-admins lock, one daily report per group and day, refunds queued or alerted once.
import { beforeAll, describe, expect, it } from "vitest";
import type { FakeTelegram } from "@orderbot/fake-telegram";
import { saveGroupAdmins } from "@orderbot/core/groups";
import { reportDay } from "../../src/jobs/daily-report.ts";
import { startedUser } from "../support/kit.ts";
import { deliveriesOf, eventsWithKey } from "../support/deliveries.ts";
import { createOrder, createPayment, createProduct, refundOwed } from "../support/seed.ts";
import { waitUntil, type InProcessWorker } from "../support/worker.ts";
import { useWorkerShop } from "../support/shop.ts";

const fixture = useWorkerShop({ poolMax: 10 });
const { db } = fixture;
let tg: FakeTelegram;
const workers: InProcessWorker[] = [];

beforeAll(async () => {
  tg = fixture.tg;
  workers.push(
    await fixture.startWorker({}, { start: false }),
    await fixture.startWorker({}, { start: false }),
  );
});

const both = (job: string) => Promise.all(workers.map((w) => w.worker.runOnce(job)));
const relay = () => workers[0]!.worker.runOnce("outbox-relay");

async function bindGroup(title: string) {
  const admin = await startedUser(tg);
  const second = await startedUser(tg);
  const member = await startedUser(tg);
  const group = tg.createGroup({ title, admins: [admin, second], members: [member] });
  await db.operatorGroup.create({
    data: { chatId: BigInt(group.id), title, adminIds: [], boundBy: BigInt(admin.id) },
  });
  return { group, admins: [admin, second], member };
}

describe("admin-refresh", () => {
  it("stores each stale group's admins once, with one getChatAdministrators call per group", async () => {
    const one = await bindGroup("Ops one");
    const two = await bindGroup("Ops two");
    const outcomes = await both("admin-refresh");
    expect(outcomes.sort()).toEqual(["not-leader", "ran"]);
    expect(await workers[0]!.worker.runOnce("admin-refresh")).toBe("ran"); // fresh now: nothing to fetch

    for (const { group, admins, member } of [one, two]) {
      const row = await db.operatorGroup.findUniqueOrThrow({ where: { chatId: BigInt(group.id) } });
      // Telegram lists the bot too when it is an admin; the shop stores the human admins only.
      expect(row.adminIds.map(Number).sort()).toEqual(admins.map((a) => a.id).sort());
      expect(row.adminIds.map(Number)).not.toContain(tg.botInfo.id);
      expect(row.adminIds.map(Number)).not.toContain(member.id);
      expect(row.adminsRefreshedAt).not.toBeNull();
      expect(tg.callsTo("getChatAdministrators").filter((c) => c.chatId === group.id)).toHaveLength(
        1,
      );
      // Telegram's answer did list the bot: it was dropped, not absent.
      const answer = tg.callsTo("getChatAdministrators").find((c) => c.chatId === group.id)
        ?.result as { user: { id: number } }[];
      expect(answer.map((m) => m.user.id)).toContain(tg.botInfo.id);
    }
  });

  it("never lets an older fetch overwrite a newer list", async () => {
    const { group } = await bindGroup("Ops three");
    const chatId = BigInt(group.id);
    const now = Date.now();
    expect(
      await saveGroupAdmins(db, { chatId, adminIds: [1n, 2n], fetchedAt: new Date(now) }),
    ).toBe(true);
    expect(
      await saveGroupAdmins(db, { chatId, adminIds: [9n], fetchedAt: new Date(now - 5000) }),
    ).toBe(false);
    expect((await db.operatorGroup.findUniqueOrThrow({ where: { chatId } })).adminIds).toEqual([
      1n,
      2n,
    ]);
  });
});

describe("daily-report", () => {
  it("queues one report per group and day, however many workers run it, and the relay sends it", async () => {
    const groups = (await db.operatorGroup.findMany()).map((g) => g.chatId);
    const day = reportDay(new Date(), 0, "UTC");
    const noon = new Date(`${day}T12:00:00.000Z`);
    const product = await createProduct(db, 3);
    for (let i = 0; i < 3; i++) {
      const order = await createOrder(db, { productId: product.id, userId: 5000n + BigInt(i) });
      await db.order.update({ where: { id: order.id }, data: { createdAt: noon } });
    }

    await both("daily-report");
    await both("daily-report");
    const reports = await db.outboxMessage.findMany({
      where: { dedupeKey: { startsWith: "report:" } },
    });
    expect(reports.map((r) => r.dedupeKey).sort()).toEqual(
      groups.map((g) => `report:${g}:${day}`).sort(),
    );

    await relay();
    for (const chatId of groups) {
      const sent = tg
        .callsTo("sendMessage")
        .filter(
          (c) =>
            c.ok &&
            c.chatId === Number(chatId) &&
            String(c.params.text).startsWith(`Daily report ${day}`),
        );
      expect(sent).toHaveLength(1);
      expect(String(sent[0]!.params.text)).toContain("Orders placed: 3");
      expect(String(sent[0]!.params.text)).toContain(`${product.sku}: 0`); // low stock
    }
  });
});

describe("refunds", () => {
  it("queues the refund call of a Stars payment that has none, once", async () => {
    const payment = await refundOwed(db, 6001n);
    await both("refunds");
    await both("refunds");
    const calls = await db.outboxMessage.findMany({
      where: { dedupeKey: `refund:${payment.telegramChargeId}` },
    });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      method: "refundStarPayment",
      chatId: 6001n,
      payload: { user_id: 6001, telegram_payment_charge_id: payment.telegramChargeId },
    });
  });

  it("alerts the operators once about a refund in another currency, and leaves the refund to them", async () => {
    const product = await createProduct(db, 5, "USD");
    const order = await createOrder(db, {
      productId: product.id,
      userId: 6002n,
      status: "EXPIRED",
      currency: "USD",
    });
    const payment = await createPayment(db, {
      orderId: order.id,
      userId: 6002n,
      status: "REFUND_PENDING",
      currency: "USD",
      amountMinor: 1250,
    });
    await both("refunds");
    await both("refunds");
    const groups = await db.operatorGroup.count();
    expect(await eventsWithKey(db, `refund-alert:${payment.telegramChargeId}`)).toBe(1);
    expect(
      await db.outboxMessage.count({ where: { dedupeKey: `refund:${payment.telegramChargeId}` } }),
    ).toBe(0);

    await relay();
    await waitUntil(
      "the alerts sent",
      async () =>
        (await deliveriesOf(db, `refund-alert:${payment.telegramChargeId}:`)).filter(
          (d) => d.status === "SENT",
        ).length === groups,
      20_000,
    );
    const texts = tg
      .callsTo("sendMessage")
      .filter((c) => c.ok && String(c.params.text).startsWith("Refund to make by hand: 12.50 USD"));
    expect(texts).toHaveLength(groups);
    expect(String(texts[0]!.params.text)).toContain("by hand");
    expect((await db.payment.findUniqueOrThrow({ where: { id: payment.id } })).status).toBe(
      "REFUND_PENDING",
    );
  });
});

describe("prune-processed-updates", () => {
  it("deletes the records of handled updates Telegram can no longer re-deliver, and keeps the recent ones", async () => {
    const bot = 7_777_000_001n;
    await db.$executeRaw`
      INSERT INTO processed_updates (bot_id, update_id, processed_at)
      SELECT ${bot}, i, timezone('UTC', now()) - CASE WHEN i <= 30 THEN interval '3 days' ELSE interval '1 hour' END
        FROM generate_series(1, 40) AS i`;
    await both("prune-processed-updates");
    const left = await db.processedUpdate.findMany({
      where: { botId: bot },
      select: { updateId: true },
    });
    expect(left.map((r) => Number(r.updateId)).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 10 }, (_, i) => 31 + i),
    );
  });
});

describe("prune-outbox", () => {
  it("deletes sent messages past the retention, and keeps recent ones, dead letters and pending ones", async () => {
    const rows: [string, string, string | null][] = [
      ["SENT", "8 days", "8 days"],
      ["SENT", "30 days", "30 days"],
      ["SENT", "1 day", "1 day"],
      ["DEAD", "60 days", null],
      ["PENDING", "9 days", null],
    ];
    for (const [i, [status, age, sentAge]] of rows.entries()) {
      await db.$executeRawUnsafe(
        `INSERT INTO outbox_messages (dedupe_key, chat_id, method, payload, status, created_at, sent_at)
         VALUES ($1, 42, 'notify', '{}', $2::"OutboxStatus", timezone('UTC', now()) - $3::interval,
                 timezone('UTC', now()) - $4::interval)`,
        `prune-outbox:${i}`,
        status,
        age,
        sentAge,
      );
    }
    await both("prune-outbox");
    const left = await db.outboxMessage.findMany({
      where: { dedupeKey: { startsWith: "prune-outbox:" } },
      select: { dedupeKey: true },
      orderBy: { dedupeKey: "asc" },
    });
    expect(left.map((r) => r.dedupeKey)).toEqual([
      "prune-outbox:2",
      "prune-outbox:3",
      "prune-outbox:4",
    ]);
  });
});
