// After N failed attempts, or a refusal that retrying cannot change, a message goes to the
// dead-letter state and operators are alerted through the outbox (never about an alert itself).
import { beforeAll, describe, expect, it } from "vitest";
import type { FakeTelegram, SimulatedGroup, SimulatedUser } from "@orderbot/fake-telegram";
import { payOnTelegram, startedUser } from "../support/kit.ts";
import { metricValue } from "../support/metrics.ts";
import { relayAll, type InProcessWorker } from "../support/worker.ts";
import { useWorkerShop } from "../support/shop.ts";

const fixture = useWorkerShop({ poolMax: 6 });
const { db } = fixture;
let tg: FakeTelegram;
let ops: SimulatedGroup;
let w: InProcessWorker;
let owner: SimulatedUser;

beforeAll(async () => {
  tg = fixture.tg;
  owner = await startedUser(tg);
  ops = tg.createGroup({ title: "Operators", admins: [await startedUser(tg)] });
  w = await fixture.startWorker(
    {
      OPERATOR_GROUP_ID: String(ops.id),
      OWNER_IDS: String(owner.id),
      OUTBOX_MAX_ATTEMPTS: "3",
      OUTBOX_RETRY_BASE_MS: "20",
      OUTBOX_RETRY_MAX_MS: "50",
    },
    { start: false },
  );
});

const relay = () => relayAll(w, db);

const send = (dedupeKey: string, chatId: number, text: string) =>
  db.outboxMessage.create({
    data: { dedupeKey, chatId: BigInt(chatId), method: "sendMessage", payload: { text } },
  });

/** The dead-letter alerts about one message: one per operator chat. */
const deadAlerts = (id: number) =>
  db.outboxMessage.findMany({
    where: { dedupeKey: { startsWith: `alert:dead:${id}:` } },
    orderBy: { id: "asc" },
  });

describe("dead letters", () => {
  it("gives up after the last attempt on a 5xx that never ends, and alerts the operators", async () => {
    const user = await startedUser(tg);
    const fault = tg.faults.set({ method: "sendMessage", chatId: user.id, rate500: 1 });
    const message = await send("flaky", user.id, "never gets through");
    await relay();
    fault.remove();

    const row = await db.outboxMessage.findUniqueOrThrow({ where: { id: message.id } });
    expect([row.status, row.attempts, row.lastError]).toEqual([
      "DEAD",
      3,
      "500: Internal Server Error",
    ]);
    expect(tg.calls.filter((c) => c.chatId === user.id && c.method === "sendMessage")).toHaveLength(
      3,
    );
    const alert = tg
      .callsTo("sendMessage")
      .find((c) => c.ok && c.chatId === ops.id && String(c.params.text).includes(`#${message.id}`));
    expect(String(alert?.params.text)).toContain("could not be delivered after 3 attempts");
    expect(
      await metricValue(w.registry, "orderbot_outbox_dead_total", { method: "sendMessage" }),
    ).toBe(1);
  });

  it("never gives up a refund owed on a 5xx: it retries past the attempt limit until Telegram answers", async () => {
    const user = await startedUser(tg);
    const chargeId = await payOnTelegram(tg, user, "refund-retries", 50);
    const fault = tg.faults.set({ method: "refundStarPayment", rate500: 1, times: 5 }); // more than OUTBOX_MAX_ATTEMPTS (3)
    const message = await db.outboxMessage.create({
      data: {
        dedupeKey: `refund:${chargeId}`,
        chatId: BigInt(user.id),
        method: "refundStarPayment",
        payload: { user_id: user.id, telegram_payment_charge_id: chargeId },
      },
    });
    await relay();
    expect(fault.injected).toBe(5);
    fault.remove();

    const row = await db.outboxMessage.findUniqueOrThrow({ where: { id: message.id } });
    expect([row.status, row.attempts]).toEqual(["SENT", 6]);
    expect(tg.charges.find((c) => c.chargeId === chargeId)?.refundedAt).toBeDefined();
    expect(
      await metricValue(w.registry, "orderbot_outbox_dead_total", { method: "refundStarPayment" }),
    ).toBe(0);
  });

  it("dead-letters at once what Telegram refuses for good, alerting for a bad request but not for a user who blocked the bot, who is marked unreachable", async () => {
    const stranger = tg.createUser(); // never started the bot: 403
    await db.customer.create({ data: { userId: BigInt(stranger.id), language: "en" } });
    const missing = await send("no-such-chat", 424242, "to nobody"); // 400 chat not found
    const blocked = await send("blocked", stranger.id, "unwanted");
    await relay();
    // Unreachable from now on, in core, for whatever would write to them next.
    const customer = await db.customer.findUniqueOrThrow({
      where: { userId: BigInt(stranger.id) },
    });
    expect(customer.unreachableSince).toBeInstanceOf(Date);

    expect((await db.outboxMessage.findUniqueOrThrow({ where: { id: missing.id } })).status).toBe(
      "DEAD",
    );
    expect((await db.outboxMessage.findUniqueOrThrow({ where: { id: blocked.id } })).status).toBe(
      "DEAD",
    );
    expect(tg.calls.filter((c) => c.params.text === "to nobody")).toHaveLength(1);
    expect(await deadAlerts(missing.id)).toHaveLength(1);
    expect(await deadAlerts(blocked.id)).toHaveLength(0);
  });

  it("does not alert about a dead alert: no loop when the operators' chat itself fails", async () => {
    const fault = tg.faults.set({ method: "sendMessage", chatId: ops.id, rate500: 1 });
    const message = await send("lost", 434343, "to nobody either");
    await relay();
    fault.remove();

    const [alert] = await deadAlerts(message.id);
    expect(alert?.status).toBe("DEAD");
    expect(await deadAlerts(alert!.id)).toHaveLength(0);
  });

  it("tells the owners in private when a message to the operators dies", async () => {
    const message = await send("too-long", ops.id, "x".repeat(4097));
    await relay();

    const row = await db.outboxMessage.findUniqueOrThrow({ where: { id: message.id } });
    expect([row.status, row.lastError]).toEqual(["DEAD", "400: Bad Request: message is too long"]);
    const alerts = await deadAlerts(message.id);
    expect(alerts.map((a) => [a.chatId, a.status])).toEqual([[BigInt(owner.id), "SENT"]]);
    const told = tg.chat(owner).botMessages.filter((m) => m.text?.includes(`#${message.id}`));
    expect(told).toHaveLength(1);
  });

  it("alerts every bound operator group, and OPERATOR_GROUP_ID only while none is bound", async () => {
    const bound = tg.createGroup({ title: "Bound with /bind", admins: [await startedUser(tg)] });
    await db.operatorGroup.create({
      data: { chatId: BigInt(bound.id), title: "Bound with /bind", adminIds: [], boundBy: 1n },
    });
    const message = await send("to-a-stranger", 454545, "nobody reads this");
    await relay();

    const alerts = await deadAlerts(message.id);
    expect(alerts.map((a) => a.chatId)).toEqual([BigInt(bound.id)]);
    expect(alerts.map((a) => a.status)).toEqual(["SENT"]);
    const told = tg
      .callsTo("sendMessage")
      .filter((c) => c.ok && String(c.params.text).includes(`(#${message.id})`))
      .map((c) => c.chatId);
    expect(told).toEqual([bound.id]);
  });
});
