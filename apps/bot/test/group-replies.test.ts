// The operator group at its flood limit: the bot's replies there and the worker's paid alerts share
// one budget, and a reply that cannot go out now never fails its update (a re-delivery would run
// the command again and answer twice). The kit's flood limits on, with a short group window on
// both sides (GROUP_RATE_WINDOW_MS); a real worker process; PostgreSQL and Redis.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SimulatedGroup, SimulatedUser } from "@orderbot/fake-telegram";
import { spawnWorker, type WorkerProcess } from "@orderbot/testkit";
import { OWNER_ID, startBotHarness, type BotHarness } from "./support/harness.ts";

const WINDOW_MS = 15_000;
const ALERTS = 3;
const SHIPS = 8;
/** Alerts the worker sent just before: the group's window is one message short of full. */
const EARLIER = 19;

let h: BotHarness;
let worker: WorkerProcess | undefined;
let owner: SimulatedUser;
let group: SimulatedGroup;

beforeAll(async () => {
  h = await startBotHarness({
    env: { GROUP_RATE_WINDOW_MS: String(WINDOW_MS), RATE_LIMIT_PER_WINDOW: "1000" },
    floodLimits: { perGroup: { limit: 20, windowMs: WINDOW_MS } },
  });
  owner = h.kit.createUser({ id: OWNER_ID, firstName: "Owner", languageCode: "en" });
  group = h.kit.createGroup({ title: "Ops", creator: owner });
}, 60_000);
afterAll(async () => {
  await worker?.app.stop();
  await h?.close();
});

/** Paid orders, each by a customer of its own (a paid alert each once the group is bound). */
async function paidOrders(count: number, from: number): Promise<string[]> {
  const product = await h.db.product.create({
    data: {
      sku: `FLOOD-${from}`,
      titleEn: "Flood mug",
      titleZh: "Flood mug",
      priceMinor: 5,
      currency: "XTR",
      stock: 10 * count,
      movements: { create: [{ delta: 10 * count, reason: "SEED", actor: "test" }] },
    },
  });
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const userId = 7_500_000_000 + from + i;
    const placed = await h.shop.orders.placeOrder({
      userId,
      chatId: userId,
      items: [{ sku: product.sku, quantity: 1 }],
      idempotencyKey: `flood-${from + i}`,
    });
    if (placed.status !== "ok") throw new Error(placed.status);
    const paid = await h.shop.payments.confirmPayment({
      orderId: placed.order.id,
      userId,
      telegramChargeId: `flood-charge-${from + i}`,
      amount: placed.order.totalMinor,
      currency: "XTR",
    });
    if (paid.status !== "ok") throw new Error(paid.status);
    ids.push(placed.order.id);
  }
  return ids;
}

const groupTexts = () =>
  h.kit
    .callsTo("sendMessage")
    .filter((c) => c.chatId === group.id && c.ok)
    .map((c) => String(c.params.text));

describe("the operator group at its flood limit", () => {
  it("sends every /ship reply and every paid alert exactly once, and fails no update", async () => {
    // The orders to ship were paid before the group was bound: only the others' alerts race.
    const shipped = await paidOrders(SHIPS, 0);
    worker = await spawnWorker("flood-worker", h.services, {
      OUTBOX_INTERVAL_MS: "100",
      GROUP_RATE_WINDOW_MS: String(WINDOW_MS),
    });
    await h.shop.groups.bind({ chatId: group.id, title: "Ops", boundBy: OWNER_ID });
    const alerted = await paidOrders(ALERTS, SHIPS);
    // What a worker's earlier alerts leave behind: Telegram counted them, the outbox has them SENT.
    for (let i = 0; i < EARLIER; i++) {
      await h.kit.call("sendMessage", { chat_id: group.id, text: `Earlier alert ${i}` });
      await h.db.outboxMessage.create({
        data: {
          dedupeKey: `earlier:${i}`,
          chatId: BigInt(group.id),
          method: "sendMessage",
          payload: { text: `Earlier alert ${i}` },
          status: "SENT",
          sentAt: new Date(),
        },
      });
    }
    // The commands race the worker's alerts: all sent at once, handled one after another.
    const actions = await Promise.all(
      shipped.map((id) => owner.send(`/ship ${id}`, { in: group })),
    );
    const outcomes = await Promise.all(actions.map((a) => a.handled()));
    expect(outcomes.map((o) => o.attempts.length)).toEqual(shipped.map(() => 1));

    const alertOf = (id: string) => (text: string) => text.startsWith(`Order ${id} was paid`);
    const replyTo = (id: string) => (text: string) => text.includes(id) && !alertOf(id)(text);
    await expect
      .poll(() => shipped.every((id) => groupTexts().some(replyTo(id))), { timeout: 60_000 })
      .toBe(true);
    await expect
      .poll(() => alerted.every((id) => groupTexts().some(alertOf(id))), { timeout: 60_000 })
      .toBe(true);
    for (const id of alerted) expect(groupTexts().filter(alertOf(id)), id).toHaveLength(1);
    for (const id of shipped) {
      const replies = groupTexts().filter(replyTo(id));
      expect(replies, id).toHaveLength(1);
      expect(replies[0], id).toMatch(new RegExp(`^Order ${id} is shipped`));
    }
  }, 120_000);
});
