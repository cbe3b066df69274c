// Acceptance for the Stars reconciliation: Telegram's ledger (the fake's getStarTransactions) holds
// charges the database never recorded, a refund made outside the bot, an amount that differs and
// more than a page of matching charges; the database holds a payment Telegram never took. Two
// workers run the job at once, then again: each finding is recorded once and alerted once per
// operator chat, the orphan charges are refunded exactly once, and history is read once.
import { beforeAll, describe, expect, it } from "vitest";
import { createShop, defaultShopConfig } from "@orderbot/core";
import { type LedgerTransaction } from "@orderbot/core/payments";
import type { FakeTelegram, SimulatedUser } from "@orderbot/fake-telegram";
import { payOnTelegram, startedUser } from "../support/kit.ts";
import { HASH_KEY } from "../support/locks.ts";
import { createOrder, createPayment, createProduct } from "../support/seed.ts";
import { relayAll, type InProcessWorker } from "../support/worker.ts";
import { useWorkerShop } from "../support/shop.ts";
import { ownerActor } from "@orderbot/core/rights";

const fixture = useWorkerShop({ poolMax: 10 });
const { db } = fixture;
let tg: FakeTelegram;
const workers: InProcessWorker[] = [];
let operatorChats: number[] = [];

beforeAll(async () => {
  tg = fixture.tg;
  const admin = await startedUser(tg);
  const bound = tg.createGroup({ title: "Ops", admins: [admin] });
  const configured = tg.createGroup({ title: "Ops fallback", admins: [admin] });
  await db.operatorGroup.create({
    data: { chatId: BigInt(bound.id), title: "Ops", adminIds: [], boundBy: BigInt(admin.id) },
  });
  // The recipient rule's: the bound group, and not the configured chat while one is bound.
  operatorChats = [bound.id];
  // No grace: every difference seeded below is already "old".
  const env = { RECONCILE_GRACE_MS: "0", OPERATOR_GROUP_ID: String(configured.id) };
  workers.push(
    await fixture.startWorker(env, { start: false }),
    await fixture.startWorker(env, { start: false }),
  );
});

const both = (job: string) => Promise.all(workers.map((w) => w.worker.runOnce(job)));

/** A charge Telegram took and the shop recorded, the way the bot would have. */
async function recorded(user: SimulatedUser, amount: number, paid?: string) {
  const product = await createProduct(db, 5);
  const order = await createOrder(db, {
    productId: product.id,
    userId: BigInt(user.id),
    status: "PAID",
  });
  const chargeId = paid ?? tg.seedStarCharge({ user, amount }).chargeId;
  await createPayment(db, {
    orderId: order.id,
    userId: BigInt(user.id),
    status: "CAPTURED",
    chargeId,
    amountMinor: amount,
  });
  return { order, chargeId };
}

/** Outbox rows and events' deliveries alike. */
const drainOutbox = () => relayAll(workers[0]!, db);

describe("reconcile-stars", () => {
  it("reports each difference once, alerts once per chat, refunds each orphan once, reads history once", async () => {
    const ann = await startedUser(tg);
    const bob = await startedUser(tg);
    // More than one page (100) of charges that match.
    for (let i = 0; i < 101; i++) await recorded(i % 2 ? ann : bob, 10);
    // Telegram took these, the shop never heard of them (no update was delivered).
    const orphans = [
      tg.seedStarCharge({ user: ann, amount: 25, payload: "lost-1" }),
      tg.seedStarCharge({ user: bob, amount: 40, payload: "lost-2" }),
    ];
    // The shop has a payment Telegram never took.
    const product = await createProduct(db, 5);
    const ghostOrder = await createOrder(db, {
      productId: product.id,
      userId: BigInt(ann.id),
      status: "PAID",
    });
    const ghost = await createPayment(db, {
      orderId: ghostOrder.id,
      userId: BigInt(ann.id),
      status: "CAPTURED",
      chargeId: "stx-never-charged",
      amountMinor: 10,
    });
    // Paid through an invoice and recorded; then Telegram support refunded it, and the bot never
    // handled the refunded_payment (no bot is running).
    const paidThenRefunded = await recorded(bob, 10, await payOnTelegram(tg, bob, "REFUNDED1", 10));
    tg.refundFromOutside(paidThenRefunded.chargeId);
    // Telegram took 30, the shop recorded 20.
    const mismatch = await recorded(ann, 30);
    await db.payment.update({
      where: { telegramChargeId: mismatch.chargeId },
      data: { amountMinor: 20 },
    });
    const orphanIds = orphans.map((o) => o.chargeId);

    // Two passes at once without the lock (a leader paused past its lease, and its successor),
    // then two workers at once, a re-run on each, and once more after the refunds went out.
    const shop = createShop({ db, locks: undefined as never, config: defaultShopConfig(HASH_KEY) });
    const pass = () =>
      shop.ledger.reconcile({
        botId: BigInt(tg.botInfo.id),
        fetchPage: async (offset, limit) => {
          const answer = await tg.call("getStarTransactions", { offset, limit });
          return (answer.result as { transactions: LedgerTransaction[] }).transactions;
        },
        operatorChats: operatorChats.map(BigInt),
        graceMs: 0,
      });
    await Promise.all([pass(), pass()]);
    const readBeforeJobs = tg.callsTo("getStarTransactions").length;
    const listedBeforeJobs = tg.starTransactions.length;
    expect((await both("reconcile-stars")).sort()).toEqual(["not-leader", "ran"]);
    await both("reconcile-stars");
    await drainOutbox();
    await both("reconcile-stars");
    await workers[1]!.worker.runOnce("reconcile-stars");
    await drainOutbox();

    const findings = await db.starLedgerFinding.findMany({ orderBy: { id: "asc" } });
    const byKind = (kind: string) =>
      findings
        .filter((f) => f.kind === kind)
        .map((f) => f.telegramChargeId)
        .sort();
    expect(byKind("charge-missing")).toEqual([...orphanIds].sort());
    expect(byKind("payment-unknown-to-telegram")).toEqual([ghost.telegramChargeId]);
    expect(byKind("refund-only-in-telegram")).toEqual([paidThenRefunded.chargeId]);
    expect(byKind("amount-mismatch")).toEqual([mismatch.chargeId]);
    expect(byKind("refund-only-in-shop")).toEqual([]);
    expect(findings).toHaveLength(5);
    expect(findings.every((f) => f.alertedAt !== null && f.resolvedAt === null)).toBe(true);
    const mismatchRow = findings.find((f) => f.kind === "amount-mismatch")!;
    expect([mismatchRow.telegramAmount, mismatchRow.shopAmount]).toEqual([30, 20]);

    // Each orphan: one payments row without an order, refunded through the normal path, once.
    for (const chargeId of orphanIds) {
      const row = await db.payment.findUniqueOrThrow({ where: { telegramChargeId: chargeId } });
      expect([row.orderId, row.status]).toEqual([null, "REFUNDED"]);
      const calls = tg
        .callsTo("refundStarPayment")
        .filter((c) => c.params.telegram_payment_charge_id === chargeId);
      expect(calls.map((c) => c.ok)).toEqual([true]);
      expect(
        tg.starTransactions.filter((tx) => tx.id === chargeId && tx.receiver !== undefined),
      ).toHaveLength(1);
      expect(await db.outboxMessage.count({ where: { dedupeKey: `refund:${chargeId}` } })).toBe(1);
    }
    expect(tg.callsTo("refundStarPayment").filter((c) => !c.ok)).toEqual([]);
    // The refund made outside is recorded as refunded; the ghost payment is left for a person.
    expect(
      (
        await db.payment.findUniqueOrThrow({
          where: { telegramChargeId: paidThenRefunded.chargeId },
        })
      ).status,
    ).toBe("REFUNDED");
    expect((await db.payment.findUniqueOrThrow({ where: { id: ghost.id } })).status).toBe(
      "CAPTURED",
    );

    // One alert per finding and operator chat, delivered once.
    const alerts = await db.delivery.findMany({
      where: { dedupeKey: { startsWith: "ledger-finding:" } },
    });
    expect(alerts).toHaveLength(findings.length * operatorChats.length);
    for (const chatId of operatorChats) {
      const sent = tg
        .callsTo("sendMessage")
        .filter(
          (c) => c.chatId === chatId && String(c.params.text).startsWith("Stars ledger check"),
        );
      expect(sent).toHaveLength(findings.length);
    }

    // History is read once: the position is Telegram's count, and later reads start there.
    const total = tg.starTransactions.length;
    expect(total).toBeGreaterThan(100);
    const position = await db.starLedgerPosition.findFirstOrThrow();
    expect(position.txOffset).toBe(total);
    const reads = tg.callsTo("getStarTransactions").map((c) => Number(c.params.offset ?? 0));
    // The unlocked passes read the history (both from 0 when they overlap, and only one of them
    // stored each page); the jobs went on from where they stopped, and the last read began at the end.
    expect(reads.slice(0, readBeforeJobs)).toContain(0);
    expect(Math.min(...reads.slice(readBeforeJobs))).toBe(listedBeforeJobs);
    expect(reads.at(-1)).toBe(total);

    // The gauge counts open findings; a resolved one stops counting, and stays resolved once.
    const metrics = async () => (await workers[1]!.worker.server.inject({ url: "/metrics" })).body;
    expect(await metrics()).toMatch(/^orderbot_unreconciled_charges 5$/m);
    const first = await shop.ledger.resolveFinding(findings[0]!.id, ownerActor(42n), "checked");
    expect(first.status).toBe("resolved");
    expect((await shop.ledger.resolveFinding(findings[0]!.id, ownerActor(43n))).status).toBe(
      "already-resolved",
    );
    expect(await metrics()).toMatch(/^orderbot_unreconciled_charges 4$/m);
  });

  it("is scheduled for every shop: digital goods are always sold for Stars", () => {
    expect(workers[0]!.worker.jobs.map((j) => j.name)).toContain("reconcile-stars");
  });
});
