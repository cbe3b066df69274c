// The poller against the test kit's Telegram: an update that fails, or that another process is
// still running, is fetched again after a pause until it is done; nothing is confirmed before.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Api } from "grammy";
import type { Update } from "grammy/types";
import { createMetricsRegistry, silentLogger } from "@orderbot/platform";
import { startFakeTelegram, type FakeTelegram } from "@orderbot/fake-telegram";
import type { UpdateOutcome } from "../src/updates/pipeline.ts";
import { startPolling } from "../src/updates/polling.ts";
import { createBotMetrics } from "../src/metrics.ts";

// A fake Telegram per test: updates an earlier test's poller left unconfirmed would otherwise be
// handed to the next test's poller (and, failing there, counted as its skips).
let tg: FakeTelegram;
beforeEach(async () => {
  tg = await startFakeTelegram();
});
afterEach(() => tg.close());

const textOf = (update: Update) => update.message?.text ?? "";

/** A poller on the kit's Telegram, with short pauses. */
const poll = (processUpdate: (update: Update) => Promise<UpdateOutcome>, extra: object = {}) =>
  startPolling({
    api: new Api(tg.token, { apiRoot: tg.apiRoot }),
    processUpdate,
    logger: silentLogger,
    allowedUpdates: ["message", "pre_checkout_query"],
    timeoutSeconds: 1,
    ...extra,
  });

describe("polling", () => {
  it("keeps fetching an update that fails, or is in progress elsewhere, until it is handled; then confirms it once", async () => {
    const seen: string[] = [];
    const handled: string[] = [];
    let failures = 0;
    let busy = 0;
    const processUpdate = async (update: Update): Promise<UpdateOutcome> => {
      const text = textOf(update);
      seen.push(text);
      if (text === "pay" && failures < 7) {
        failures += 1; // more failures than the poller once allowed, in quick succession
        throw new Error("database restarting");
      }
      if (text === "locked" && busy < 3) {
        busy += 1; // its `update` lock is held by a process that died
        return "in-progress";
      }
      if (handled.includes(text)) return "duplicate";
      handled.push(text);
      return "handled";
    };
    const poller = poll(processUpdate, { retryBaseMs: 10, retryMaxMs: 40 });
    try {
      const payer = tg.createUser();
      const other = tg.createUser();
      await payer.send("pay");
      await other.send("locked");
      await other.send("after-locked");
      const deadline = Date.now() + 10_000;
      while (handled.length < 3 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      expect([...handled].sort()).toEqual(["after-locked", "locked", "pay"]);
      expect([failures, busy]).toEqual([7, 3]);
      // The chat's order held: "after-locked" ran only once "locked" was handled.
      expect(handled.indexOf("after-locked")).toBeGreaterThan(handled.indexOf("locked"));
      expect(seen.indexOf("after-locked")).toBeGreaterThan(seen.indexOf("locked") + busy - 1);
      // Confirmed: nothing is handed out again.
      const seenBefore = seen.length;
      await new Promise((r) => setTimeout(r, 300));
      expect(seen.length).toBe(seenBefore);
    } finally {
      await poller.stop();
    }
  });

  it("keeps polling while a chat is busy: another chat's update (a pre-checkout query, say) does not wait for it", async () => {
    const handled: string[] = [];
    let release: () => void = () => undefined;
    const slowDone = new Promise<void>((resolve) => (release = resolve));
    const processUpdate = async (update: Update): Promise<UpdateOutcome> => {
      const text = textOf(update);
      if (handled.includes(text)) return "duplicate";
      if (text === "slow") await slowDone; // a Bot API call that takes its time
      handled.push(text);
      return "handled";
    };
    const poller = poll(processUpdate, { busyPollMs: 20 });
    try {
      const busy = tg.createUser();
      const other = tg.createUser();
      await busy.send("slow");
      await busy.send("after-slow");
      await new Promise((r) => setTimeout(r, 100)); // the slow one is running
      await other.send("urgent");
      const deadline = Date.now() + 5_000;
      while (!handled.includes("urgent") && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      expect(handled).toEqual(["urgent"]); // while "slow" still runs, and "after-slow" waits for it
      release();
      while (handled.length < 3 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      expect(handled).toEqual(["urgent", "slow", "after-slow"]);
    } finally {
      release();
      await poller.stop();
    }
  });

  it("never skips a payment however long it fails; other updates are skipped after the limit, and counted", async () => {
    const registry = createMetricsRegistry();
    const metrics = createBotMetrics(registry);
    const api = new Api(tg.token, { apiRoot: tg.apiRoot });
    // The fault hook: the database is unreachable until the test says otherwise.
    let databaseDown = true;
    const recorded: string[] = [];
    let paymentAttempts = 0;
    const processUpdate = async (update: Update): Promise<UpdateOutcome> => {
      const payment = update.message?.successful_payment;
      if (payment) paymentAttempts += 1;
      // Answered without the database, as Telegram's 10 s require.
      if (update.pre_checkout_query) {
        await api.answerPreCheckoutQuery(update.pre_checkout_query.id, true);
        return "handled";
      }
      if (databaseDown) throw new Error("database unreachable");
      const key = payment ? "charge" : textOf(update);
      if (recorded.includes(key)) return "duplicate";
      recorded.push(key);
      return "handled";
    };
    const maxAttempts = 3;
    const poller = poll(processUpdate, {
      retryBaseMs: 5,
      retryMaxMs: 20,
      maxAttempts,
      skipped: metrics.updatesSkipped,
    });
    const skippedCount = async () =>
      (await registry.getSingleMetric("orderbot_updates_skipped_total")!.get()).values
        .filter((v) => v.labels.kind === "message")
        .reduce((sum, v) => sum + v.value, 0);
    try {
      const buyer = tg.createUser();
      const other = tg.createUser();
      await buyer.send("/start"); // nothing to charge: given up on after maxAttempts
      await other.send("/catalog");
      // The buyer is charged: an invoice, its pre-checkout answered, then the successful_payment.
      await api.sendInvoice(buyer.id, "Order", "1 item", "ORDER123", "XTR", [
        { label: "Order", amount: 25 },
      ]);
      const payment = await buyer.pay();
      if (payment.status !== "paid") throw new Error(`payment ${payment.status}`);
      const deadline = Date.now() + 10_000;
      while (paymentAttempts < maxAttempts * 4 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      // Far past the limit, and still being tried; the other updates were skipped and counted.
      expect(paymentAttempts).toBeGreaterThanOrEqual(maxAttempts * 4);
      expect(await skippedCount()).toBe(2);
      expect(recorded).toEqual([]);

      databaseDown = false; // the database is back: the payment is recorded
      while (!recorded.includes("charge") && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      expect(recorded).toEqual(["charge"]);
      expect(await skippedCount()).toBe(2);
    } finally {
      await poller.stop();
    }
  });

  it("keeps a minimum interval between empty polls when getUpdates answers at once, so it never spins", async () => {
    tg.faults.delivery({ pollsAnswerAtOnce: true }); // a misbehaving server or proxy
    const api = new Api(tg.token, { apiRoot: tg.apiRoot });
    let calls = 0;
    api.config.use((prev, method, payload, signal) => {
      if (method === "getUpdates") calls += 1;
      return prev(method, payload, signal);
    });
    const poller = startPolling({
      api,
      processUpdate: async () => "handled",
      logger: silentLogger,
      allowedUpdates: ["message"],
      timeoutSeconds: 15,
    });
    try {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      // One a second (the default minimum) over about two seconds; spinning made thousands.
      expect(calls).toBeGreaterThanOrEqual(2);
      expect(calls).toBeLessThanOrEqual(4);
    } finally {
      await poller.stop();
      tg.faults.delivery({});
    }
  });
});
