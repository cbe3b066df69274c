// The poller when one update keeps failing: getUpdates hands out at most 100 updates from the
// oldest unconfirmed one, so that update must not hold the offset. It is parked in PostgreSQL
// (real, as everywhere) before the offset moves past it, and retried from there.
import { afterEach, assert, beforeEach, describe, expect, it } from "vitest";
import { Api } from "grammy";
import type { Update } from "grammy/types";
import { createParkedUpdates } from "@orderbot/db";
import { createMetricsRegistry, silentLogger } from "@orderbot/platform";
import { startFakeTelegram, type FakeTelegram, type SimulatedUser } from "@orderbot/fake-telegram";
import { useTestDatabase } from "@orderbot/testkit";
import { createBotMetrics } from "../src/metrics.ts";
import { createParking } from "../src/updates/parking.ts";
import type { UpdateOutcome } from "../src/updates/pipeline.ts";
import { startPolling } from "../src/updates/polling.ts";

const BOT_ID = 4_242n;
const store = createParkedUpdates(useTestDatabase().db);
let tg: FakeTelegram;
beforeEach(async () => {
  tg = await startFakeTelegram();
});
afterEach(() => tg.close());

const until = async (check: () => boolean | Promise<boolean>, ms = 20_000) => {
  const deadline = Date.now() + ms;
  while (!(await check()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
};

/** A poller with parking and a gauge, as the app builds it. */
function poll(processUpdate: (update: Update) => Promise<UpdateOutcome>) {
  const registry = createMetricsRegistry();
  const metrics = createBotMetrics(registry);
  const poller = startPolling({
    api: new Api(tg.token, { apiRoot: tg.apiRoot }),
    processUpdate,
    logger: silentLogger,
    allowedUpdates: ["message", "pre_checkout_query"],
    timeoutSeconds: 1,
    parking: createParking({
      store,
      botId: BOT_ID,
      logger: silentLogger,
      gauge: metrics.updatesParked,
    }),
  });
  const parkedGauge = async () =>
    (await registry.getSingleMetric("orderbot_updates_parked")!.get()).values[0]?.value;
  return { poller, parkedGauge };
}

/** `count` messages from other chats, a few per chat. */
async function crowd(count: number): Promise<void> {
  let users: SimulatedUser[] = [];
  for (let i = 0; i < count; i++) {
    if (i % 5 === 0) users = [tg.createUser()];
    await users[0]!.send(`message ${i}`);
  }
}

/** The user starts the bot and gets an invoice, so that user.pay() sends a pre-checkout query. */
async function invoice(user: SimulatedUser): Promise<void> {
  await user.send("/start");
  await new Api(tg.token, { apiRoot: tg.apiRoot }).sendInvoice(
    user.id,
    "Order",
    "1 item",
    "P1",
    "XTR",
    [{ label: "Order", amount: 5 }],
  );
}

describe("polling: one update that keeps failing", () => {
  it("stalls nothing: 150 later updates and a pre-checkout are handled, and the failing update is parked and still retried", async () => {
    const poisoned = tg.createUser();
    const first = await poisoned.send("/start"); // update 1: throws on every try
    let tries = 0;
    const handled = new Set<number>();
    const api = new Api(tg.token, { apiRoot: tg.apiRoot });
    const { poller, parkedGauge } = poll(async (update) => {
      if (update.update_id === first.updateId) {
        tries += 1;
        throw new Error("a bug that fails this update every time");
      }
      if (update.pre_checkout_query)
        await api.answerPreCheckoutQuery(update.pre_checkout_query.id, true);
      handled.add(update.update_id);
      return "handled";
    });
    try {
      await crowd(150);
      const buyer = tg.createUser();
      await invoice(buyer);
      // The fake gives the bot Telegram's 10 s from the query's arrival, and says "timeout" after.
      const payment = await buyer.pay();
      assert(payment.status === "paid", `the payment ended ${payment.status}`);
      // The crowd, the buyer's /start, pre-checkout query and successful_payment message.
      await until(() => handled.size >= 153);
      expect(handled.size).toBe(153);
      expect(handled.has(payment.updateId)).toBe(true);
      expect(handled.has(first.updateId)).toBe(false);
      // Parked where an operator sees it (the table, the gauge), and still retried.
      const parked = await store.list(BOT_ID);
      expect(parked.map((p) => p.updateId)).toEqual([first.updateId]);
      expect(JSON.parse(parked[0]!.json)).toMatchObject({ message: { text: "/start" } });
      expect(await parkedGauge()).toBe(1);
      const triesThen = tries;
      await until(() => tries > triesThen);
      expect(tries).toBeGreaterThan(triesThen);
    } finally {
      await poller.stop();
      await store.remove(BOT_ID, first.updateId);
    }
  });

  it("never drops a parked payment: it survives a restart and is recorded once it works, then forgotten", async () => {
    const buyer = tg.createUser();
    let broken = true;
    const recorded: string[] = [];
    const api = new Api(tg.token, { apiRoot: tg.apiRoot });
    const processUpdate = async (update: Update): Promise<UpdateOutcome> => {
      if (update.pre_checkout_query) {
        await api.answerPreCheckoutQuery(update.pre_checkout_query.id, true);
        return "handled";
      }
      const charge = update.message?.successful_payment?.telegram_payment_charge_id;
      if (charge === undefined) return "handled";
      if (broken) throw new Error("the payment's transaction fails every time");
      if (recorded.includes(charge)) return "duplicate";
      recorded.push(charge);
      return "handled";
    };
    const first = poll(processUpdate);
    await invoice(buyer);
    const payment = await buyer.pay();
    if (payment.status !== "paid") throw new Error(`payment ${payment.status}`);
    await crowd(120);
    // Telegram no longer holds it (the offset moved past it): only the table does.
    const atTelegram = () => tg.pendingUpdates.some((q) => q.update.update_id === payment.updateId);
    await until(() => !atTelegram());
    expect(atTelegram()).toBe(false);
    await first.poller.stop();
    const parked = await store.list(BOT_ID);
    expect(parked).toHaveLength(1);
    const charge = (JSON.parse(parked[0]!.json) as Update).message?.successful_payment;
    expect(charge?.telegram_payment_charge_id).toBe(payment.chargeId);

    const second = poll(processUpdate); // a restart: it reads the table
    try {
      await until(async () => (await second.parkedGauge()) === 1);
      expect(await second.parkedGauge()).toBe(1);
      broken = false;
      await until(async () => (await store.list(BOT_ID)).length === 0);
      expect(recorded).toEqual([payment.chargeId]);
      expect(await store.list(BOT_ID)).toEqual([]);
      expect(await second.parkedGauge()).toBe(0);
    } finally {
      await second.poller.stop();
    }
  });
});
