// The Stars reconciliation in core, against a list that stands for Telegram's getStarTransactions:
// paging from the stored position, a position only one reader can advance, a lease lost mid-page,
// and the grace and coverage rules that keep payments and refunds in flight from being findings.
import { describe, expect, it } from "vitest";
import type { LedgerTransaction } from "../../../src/payments/index.ts";
import { readLedger } from "../../../src/payments/reconciliation/ledger.ts";
import { useShopHarness } from "../../support/shop.ts";

const h = useShopHarness();

let nextBot = 9_000_000_000n;
const payer = { id: 7_400_000_001 };
const charge = (id: string, amount: number, at: Date): LedgerTransaction => ({
  id,
  amount,
  date: Math.floor(at.getTime() / 1000),
  source: { type: "user", transaction_type: "invoice_payment", user: payer, invoice_payload: "p" },
});

/** A Telegram list and the offsets it was asked for. */
function telegram(list: LedgerTransaction[]) {
  const asked: number[] = [];
  return {
    list,
    asked,
    fetchPage: async (offset: number, limit: number) => {
      asked.push(offset);
      return list.slice(offset, offset + limit);
    },
  };
}

describe("reading Telegram's list", () => {
  it("pages from the stored position, at most maxPages a run, and reads each transaction once", async () => {
    const botId = nextBot++;
    const tg = telegram(Array.from({ length: 250 }, (_, i) => charge(`p${i}`, 1, h.clock.now())));
    const read = (maxPages = 2) =>
      readLedger(h.db, { botId, fetchPage: tg.fetchPage, maxPages, now: () => h.clock.now() });
    expect(await read()).toEqual({ read: 200, atEnd: false, offset: 200 });
    expect(await read()).toEqual({ read: 50, atEnd: true, offset: 250 });
    tg.list.push(charge("p250", 1, h.clock.now()));
    expect(await read()).toEqual({ read: 1, atEnd: true, offset: 251 });
    expect(await read()).toEqual({ read: 0, atEnd: true, offset: 251 });
    expect(tg.asked).toEqual([0, 100, 200, 250, 251]);
    expect(await h.db.starTransaction.count({ where: { botId } })).toBe(251);
    const position = await h.db.starLedgerPosition.findUniqueOrThrow({ where: { botId } });
    expect(position.readToEndAt).toEqual(h.clock.now());
  });

  it("lets only one of two readers of the same page advance the position", async () => {
    const botId = nextBot++;
    const tg = telegram([charge("a", 1, h.clock.now()), charge("b", 2, h.clock.now())]);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let waiting = 0;
    const slowFetch = async (offset: number, limit: number) => {
      const page = await tg.fetchPage(offset, limit);
      if (++waiting === 2) release();
      await gate;
      return page;
    };
    const read = () => readLedger(h.db, { botId, fetchPage: slowFetch, now: () => h.clock.now() });
    const results = await Promise.all([read(), read()]);
    expect(results.map((r) => r.read).sort()).toEqual([0, 2]);
    expect(results.every((r) => r.offset === 2)).toBe(true);
    expect(await h.db.starTransaction.count({ where: { botId } })).toBe(2);
  });

  it("stores nothing when the lease is lost while a page is stored", async () => {
    const botId = nextBot++;
    const lease = new AbortController();
    const tg = telegram([charge("x", 1, h.clock.now())]);
    const read = readLedger(h.db, {
      botId,
      fetchPage: async (offset, limit) => {
        lease.abort(new Error("lease lost"));
        return tg.fetchPage(offset, limit);
      },
      leaseSignal: lease.signal,
      now: () => h.clock.now(),
    });
    await expect(read).rejects.toThrow();
    expect(await h.db.starTransaction.count({ where: { botId } })).toBe(0);
    expect((await h.db.starLedgerPosition.findUniqueOrThrow({ where: { botId } })).txOffset).toBe(
      0,
    );
  });
});

describe("comparing with the payments table", () => {
  it("waits out the grace before a charge is missing, then records it once and queues its refund", async () => {
    const botId = nextBot++;
    const tg = telegram([charge("late-one", 9, h.clock.now())]);
    const pass = () =>
      h.shop.ledger.reconcile({
        botId,
        fetchPage: tg.fetchPage,
        operatorChats: [],
        graceMs: 600_000,
      });
    expect((await pass()).found["charge-missing"]).toBe(0);
    expect(await h.db.payment.count({ where: { telegramChargeId: "late-one" } })).toBe(0);
    h.clock.advance(601_000);
    expect((await pass()).found["charge-missing"]).toBe(1);
    expect((await pass()).found["charge-missing"]).toBe(0);
    expect(
      await h.db.payment.findUniqueOrThrow({ where: { telegramChargeId: "late-one" } }),
    ).toMatchObject({ orderId: null, status: "REFUND_PENDING", amountMinor: 9, currency: "XTR" });
    expect(await h.db.outboxMessage.count({ where: { dedupeKey: "refund:late-one" } })).toBe(1);
  });

  it("calls a payment unknown to Telegram only once a read that reached the end covers its time", async () => {
    const botId = nextBot++;
    const tg = telegram([]);
    const pass = (maxPages?: number) =>
      h.shop.ledger.reconcile({
        botId,
        fetchPage: tg.fetchPage,
        operatorChats: [],
        graceMs: 0,
        ...(maxPages !== undefined ? { maxPages } : {}),
      });
    await pass(); // the end of the list, read before the payment existed
    h.clock.advance(1000);
    const order = await h.db.order.create({
      data: {
        publicId: "RECON001",
        userId: 7_400_000_001n,
        chatId: 7_400_000_001n,
        status: "PAID",
        totalMinor: 5,
        currency: "XTR",
        expiresAt: h.clock.now(),
        idempotencyKey: "recon-1",
      },
    });
    await h.db.payment.create({
      data: {
        orderId: order.id,
        userId: 7_400_000_001n,
        telegramChargeId: "shop-only",
        amountMinor: 5,
        currency: "XTR",
        status: "CAPTURED",
        createdAt: h.clock.now(),
      },
    });
    // The list was last read to its end before this payment: Telegram may have it by now.
    expect((await pass(0)).found["payment-unknown-to-telegram"]).toBe(0);
    h.clock.advance(1000);
    expect((await pass()).found["payment-unknown-to-telegram"]).toBe(1);
    const [finding] = (await h.shop.ledger.openFindings(100)).filter(
      (f) => f.telegramChargeId === "shop-only",
    );
    expect(finding).toMatchObject({ kind: "payment-unknown-to-telegram", shopAmount: 5 });
    expect(finding!.details).toMatchObject({ status: "CAPTURED", orderId: "RECON001" });
  });
});

describe("a list that changed behind the reader", () => {
  const at = (seconds: number) => new Date(h.clock.now().getTime() + seconds * 1000);
  const read = (botId: bigint, list: LedgerTransaction[]) =>
    readLedger(h.db, { botId, fetchPage: telegram(list).fetchPage, now: () => h.clock.now() });
  const breaks = async (chargeId: string) =>
    (await h.shop.ledger.openFindings(1000)).filter(
      (f) => f.kind === "ledger-out-of-order" && f.telegramChargeId === chargeId,
    );

  it("reads on past a page whose dates go back, stores it, and records one finding", async () => {
    const botId = nextBot++;
    const a = charge("order-a", 1, at(0));
    expect(await read(botId, [a])).toMatchObject({ read: 1, atEnd: true, offset: 1 });
    // Newer charges arrive at the start of the list: what comes after the position is older.
    const changed = [charge("order-c", 1, at(20)), charge("order-b", 1, at(10)), a];
    expect(await read(botId, changed)).toEqual({
      read: 2,
      atEnd: true,
      offset: 3,
      outOfOrder: true,
    });
    // The list grows at its end again: read, and nothing found twice.
    changed.push(charge("order-d", 1, at(30)));
    expect(await read(botId, changed)).toEqual({ read: 1, atEnd: true, offset: 4 });
    expect(await h.db.starTransaction.count({ where: { botId } })).toBe(3);
    const [finding, ...more] = await breaks("order-a");
    expect(more).toEqual([]);
    expect(finding?.details).toMatchObject({ offset: 2 });
  });

  it("reads on past a page that repeats what was read, even when its dates go forward", async () => {
    const botId = nextBot++;
    const a = charge("mid-a", 1, at(0));
    const c = charge("mid-c", 1, at(20));
    expect(await read(botId, [a, c])).toMatchObject({ read: 2, offset: 2 });
    // An entry appears behind the position: the next page starts with one already read.
    const changed = [a, charge("mid-b", 1, at(10)), c, charge("mid-d", 1, at(30))];
    expect(await read(botId, changed)).toMatchObject({ read: 2, offset: 4, outOfOrder: true });
    expect(await h.db.starTransaction.count({ where: { botId } })).toBe(3);
    expect(await breaks("mid-c")).toHaveLength(1);
    const position = await h.db.starLedgerPosition.findUniqueOrThrow({ where: { botId } });
    expect(position.txOffset).toBe(4);
  });
});
