// Refunds that used to be invisible: a charge for no order we know (now a payment row, refunded
// through the usual path), and a Stars refund Telegram refused (dead-lettered, every operator
// group told, sent again when an operator asks). Nothing is ever refunded twice.
import { beforeAll, describe, expect, it } from "vitest";
import type { Shop } from "@orderbot/core";
import type { FakeTelegram, SimulatedGroup } from "@orderbot/fake-telegram";
import { deliveriesOf, eventsWithKey } from "../support/deliveries.ts";
import { startedUser } from "../support/kit.ts";
import { metricValue } from "../support/metrics.ts";
import { relayAll, type InProcessWorker } from "../support/worker.ts";
import { useWorkerShop } from "../support/shop.ts";
import { ownerActor } from "@orderbot/core/rights";

const fixture = useWorkerShop({ poolMax: 10 });
const { db } = fixture;
let tg: FakeTelegram;
let shop: Shop;
let configured: SimulatedGroup;
let w: InProcessWorker;
const OPERATOR = 7_400_000_001;

beforeAll(async () => {
  tg = fixture.tg;
  configured = tg.createGroup({ title: "OPERATOR_GROUP_ID", admins: [await startedUser(tg)] });
  shop = await fixture.botShop();
  w = await fixture.startWorker({ OPERATOR_GROUP_ID: String(configured.id) }, { start: false });
});

const relay = () => relayAll(w, db, 30_000);

const payment = (chargeId: string) =>
  db.payment.findUniqueOrThrow({ where: { telegramChargeId: chargeId } });
const refundCalls = (chargeId: string) =>
  tg.callsTo("refundStarPayment").filter((c) => c.params.telegram_payment_charge_id === chargeId);

async function bindGroup(title: string): Promise<SimulatedGroup> {
  const group = tg.createGroup({ title, admins: [await startedUser(tg)] });
  await shop.groups.bind({ chatId: group.id, title, boundBy: OPERATOR });
  return group;
}

describe("a charge for an unknown order", () => {
  it("is refunded through the usual path (Stars), and counted by the refund-age gauge until then", async () => {
    const payer = await startedUser(tg);
    // Telegram took the Stars; the invoice came from another database sharing the token.
    const charge = tg.seedStarCharge({ user: payer, amount: 35, payload: "STAGING1" });
    const result = await shop.payments.confirmPayment({
      orderId: "STAGING1",
      userId: payer.id,
      telegramChargeId: charge.chargeId,
      amount: 35,
      currency: "XTR",
    });
    expect(result).toMatchObject({ status: "refund-pending", reason: "unknown-order" });
    // The outbox row was lost (say, a restore): the refunds job queues the call again.
    await db.outboxMessage.deleteMany({ where: { dedupeKey: `refund:${charge.chargeId}` } });
    // Ten minutes owed: the gauge behind the refund-age alert sees it.
    await db.$executeRaw`UPDATE payments SET created_at = created_at - interval '10 minutes' WHERE telegram_charge_id = ${charge.chargeId}`;
    await w.worker.server.inject({ method: "GET", url: "/metrics" });
    expect(
      await metricValue(w.registry, "orderbot_refund_pending_oldest_age_seconds"),
    ).toBeGreaterThanOrEqual(600);
    expect(await w.worker.runOnce("refunds")).toBe("ran");
    await relay();

    expect(await payment(charge.chargeId)).toMatchObject({ orderId: null, status: "REFUNDED" });
    expect(refundCalls(charge.chargeId).filter((c) => c.ok)).toHaveLength(1);
    expect(tg.charges.find((c) => c.chargeId === charge.chargeId)?.refundedAt).toBeDefined();
  });

  it("in another currency, taken before any group was bound, reaches the operators once one is", async () => {
    const result = await shop.payments.confirmPayment({
      orderId: "STAGING2",
      userId: 7_400_000_099,
      telegramChargeId: "usd-orphan",
      amount: 1200,
      currency: "USD",
    });
    expect(result).toMatchObject({ status: "refund-pending", reason: "unknown-order" });
    // The event names no recipient: they are chosen when it is delivered.
    expect(await eventsWithKey(db, "refund-alert:usd-orphan")).toBe(1);
    const ops = await bindGroup("Bound later");
    expect(await w.worker.runOnce("refunds")).toBe("ran");
    await relay();
    const alerts = await deliveriesOf(db, "refund-alert:usd-orphan:");
    expect(alerts.map((a) => [a.chatId, a.status])).toEqual([[BigInt(ops.id), "SENT"]]);
    const told = tg
      .callsTo("sendMessage")
      .filter((c) => c.ok && String(c.params.text).startsWith("Refund to make by hand: 12.00 USD"));
    expect(told.map((c) => c.chatId)).toEqual([ops.id]);
  });
});

describe("a Stars refund Telegram refused", () => {
  it("is dead-lettered with an alert to every operator chat, sent again on an operator's retry, and reported again when refused again", async () => {
    const groups = await db.operatorGroup.findMany();
    expect(groups.length).toBeGreaterThan(0);
    // A charge Telegram does not know (its ledger is another bot's): every call is refused.
    await shop.payments.confirmPayment({
      orderId: "STAGING3",
      userId: (await startedUser(tg)).id,
      telegramChargeId: "unknown-to-telegram",
      amount: 20,
      currency: "XTR",
    });
    await relay();
    const call = await db.outboxMessage.findUniqueOrThrow({
      where: { dedupeKey: "refund:unknown-to-telegram" },
    });
    expect(call).toMatchObject({
      status: "DEAD",
      lastError: expect.stringContaining("CHARGE_ID_INVALID"),
    });
    const alerted = () =>
      db.outboxMessage.findMany({ where: { dedupeKey: { startsWith: `alert:dead:${call.id}:` } } });
    // The recipient rule's chats: the bound groups (OPERATOR_GROUP_ID only while none is).
    const everyChat = groups.map((g) => g.chatId).sort();
    expect((await alerted()).map((a) => a.chatId).sort()).toEqual(everyChat);

    expect(
      await shop.payments.retryRefund(
        { telegramChargeId: "unknown-to-telegram" },
        ownerActor(OPERATOR),
      ),
    ).toMatchObject({ status: "ok" });
    await relay();
    expect(refundCalls("unknown-to-telegram")).toHaveLength(2);
    expect((await payment("unknown-to-telegram")).status).toBe("REFUND_PENDING");
    expect(await alerted()).toHaveLength(everyChat.length * 2);
  });

  it("refunds once when retried, and a retry after Telegram refunded it another way records it without a second refund", async () => {
    const payer = await startedUser(tg);
    const [first, second] = [1, 2].map(() =>
      tg.seedStarCharge({ user: payer, amount: 10, payload: "STAGING4" }),
    );
    for (const charge of [first!, second!]) {
      await shop.payments.confirmPayment({
        orderId: "STAGING4",
        userId: payer.id,
        telegramChargeId: charge.chargeId,
        amount: 10,
        currency: "XTR",
      });
      // As if Telegram had refused an earlier attempt (a refusal it later gets over).
      await db.outboxMessage.update({
        where: { dedupeKey: `refund:${charge.chargeId}` },
        data: { status: "DEAD", lastError: "400: Bad Request: something transient" },
      });
    }

    expect(
      await shop.payments.retryRefund({ telegramChargeId: first!.chargeId }, ownerActor(OPERATOR)),
    ).toMatchObject({ status: "ok" });
    await relay();
    expect((await payment(first!.chargeId)).status).toBe("REFUNDED");
    expect(
      await shop.payments.retryRefund({ telegramChargeId: first!.chargeId }, ownerActor(OPERATOR)),
    ).toMatchObject({ status: "already-refunded" });

    // Telegram support refunded the second meanwhile; the retry's call is refused as already
    // refunded, which the relay counts as done.
    tg.refundFromOutside(second!.chargeId);
    expect(
      await shop.payments.retryRefund({ telegramChargeId: second!.chargeId }, ownerActor(OPERATOR)),
    ).toMatchObject({ status: "ok" });
    await relay();
    expect((await payment(second!.chargeId)).status).toBe("REFUNDED");

    for (const charge of [first!, second!])
      expect(refundCalls(charge.chargeId).filter((c) => c.ok)).toHaveLength(
        charge === first ? 1 : 0,
      );
    const ledgerRefunds = tg.starTransactions.filter(
      (tx) => tx.id === second!.chargeId && tx.receiver !== undefined,
    );
    expect(ledgerRefunds).toHaveLength(1);
  });
});
