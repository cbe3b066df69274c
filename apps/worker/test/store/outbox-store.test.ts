import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@orderbot/testkit";
import {
  claimDueOutbox,
  enqueueOutbox,
  markOutboxDead,
  markOutboxSent,
  outboxStats,
  rescheduleOutbox,
} from "@orderbot/core/outbox";
import { completeStarRefund } from "@orderbot/core/payments";
import { notify, refundOwed } from "../support/seed.ts";

const { db } = useTestDatabase({ poolMax: 12 });

const clearOutbox = () => db.outboxMessage.deleteMany({});

describe("outbox store", () => {
  it("queues a dedupe key once", async () => {
    await clearOutbox();
    expect(await enqueueOutbox(db, [notify(1n, "dedupe-1")])).toBe(1);
    expect(await enqueueOutbox(db, [notify(1n, "dedupe-1")])).toBe(0);
    expect(await db.outboxMessage.count()).toBe(1);
  });

  it("hands each due message to exactly one of several concurrent claimers", async () => {
    await clearOutbox();
    await enqueueOutbox(
      db,
      Array.from({ length: 300 }, (_, i) => notify(BigInt(1 + (i % 30)), `race-${i}`)),
    );
    const claims = await Promise.all(
      Array.from({ length: 8 }, () => claimDueOutbox(db, { limit: 50, claimMs: 60_000 })),
    );
    const ids = claims.flat().map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(300);
    expect(await claimDueOutbox(db, { limit: 50, claimMs: 60_000 })).toEqual([]); // all hidden by their claims
    expect(claims.flat().every((m) => m.attempts === 1)).toBe(true);
  });

  it("claims only due messages, oldest first, leaving out the chats it is told to", async () => {
    await clearOutbox();
    await enqueueOutbox(db, [notify(5n, "chat-5")]);
    await enqueueOutbox(db, [notify(6n, "chat-6")]);
    await enqueueOutbox(db, [notify(7n, "later")]);
    await db.outboxMessage.update({
      where: { dedupeKey: "later" },
      data: { nextAttemptAt: new Date(Date.now() + 3_600_000) },
    });
    const claimed = await claimDueOutbox(db, { limit: 10, claimMs: 60_000, excludeChats: [6n] });
    expect(claimed.map((m) => m.dedupeKey)).toEqual(["chat-5"]);
    expect(claimed[0]!.chatId).toBe(5n);
  });

  it("lets only the current claim settle a message: a stale relay's late mark changes nothing", async () => {
    await clearOutbox();
    await enqueueOutbox(db, [notify(8n, "stale")]);
    const [first] = await claimDueOutbox(db, { limit: 1, claimMs: 1 });
    await sleep(10); // the first relay stalls past its claim
    const [second] = await claimDueOutbox(db, { limit: 1, claimMs: 60_000 });
    expect(second!.id).toBe(first!.id);
    expect(second!.attempts).toBe(2);
    expect(await markOutboxSent(db, first!)).toBe(false);
    expect(await markOutboxSent(db, second!)).toBe(true);
    expect(await markOutboxSent(db, second!)).toBe(false); // sent exactly once
    const row = await db.outboxMessage.findUniqueOrThrow({ where: { id: first!.id } });
    expect(row.status).toBe("SENT");
    expect(row.sentAt).not.toBeNull();
  });

  it("puts a message back for later, counting the attempt or not", async () => {
    const retryLater = (
      claimed: { id: number; claim: string },
      retry: { delayMs: number; counts: boolean; error: string },
    ) => rescheduleOutbox(db, { id: claimed.id, claim: claimed.claim, ...retry });
    await clearOutbox();
    await enqueueOutbox(db, [notify(9n, "retry")]);
    const [m] = await claimDueOutbox(db, { limit: 1, claimMs: 60_000 });
    expect(await retryLater(m!, { delayMs: 0, counts: false, error: "429: slow down" })).toBe(true);
    let row = await db.outboxMessage.findUniqueOrThrow({ where: { id: m!.id } });
    expect([row.attempts, row.lastError, row.status]).toEqual([0, "429: slow down", "PENDING"]);
    const [again] = await claimDueOutbox(db, { limit: 1, claimMs: 60_000 });
    expect(await retryLater(again!, { delayMs: 60_000, counts: true, error: "500" })).toBe(true);
    row = await db.outboxMessage.findUniqueOrThrow({ where: { id: m!.id } });
    expect(row.attempts).toBe(1);
    expect(row.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 50_000);
    expect(
      await rescheduleOutbox(db, { id: again!.id, claim: again!.claim, delayMs: 0, counts: false }),
    ).toBe(false); // claim used up
  });

  it("never leaves a used claim valid, even when a retry lands on the claim's own millisecond", async () => {
    await clearOutbox();
    await enqueueOutbox(db, [notify(12n, "same-millisecond")]);
    await db.$transaction(async (tx) => {
      // now() is the transaction's start: the claim and a retry as long as the claim compute one time.
      const [m] = await claimDueOutbox(tx, { limit: 1, claimMs: 30_000 });
      expect(
        await rescheduleOutbox(tx, { id: m!.id, claim: m!.claim, delayMs: 30_000, counts: true }),
      ).toBe(true);
      expect(
        await rescheduleOutbox(tx, { id: m!.id, claim: m!.claim, delayMs: 30_000, counts: true }),
      ).toBe(false);
    });
  });

  it("dead-letters a message and queues the operators' alert in the same transaction, once", async () => {
    await clearOutbox();
    await enqueueOutbox(db, [notify(10n, "doomed")]);
    const [m] = await claimDueOutbox(db, { limit: 1, claimMs: 60_000 });
    const alert = notify(-100500n, `alert:dead:${m!.id}`, "operator-dead-letter");
    expect(
      await markOutboxDead(db, {
        id: m!.id,
        claim: m!.claim,
        error: "400: chat not found",
        alerts: [alert],
      }),
    ).toBe(true);
    expect(
      await markOutboxDead(db, { id: m!.id, claim: m!.claim, error: "again", alerts: [alert] }),
    ).toBe(false);
    const rows = await db.outboxMessage.findMany({ orderBy: { id: "asc" } });
    expect(rows.map((r) => [r.dedupeKey, r.status])).toEqual([
      ["doomed", "DEAD"],
      [`alert:dead:${m!.id}`, "PENDING"],
    ]);
    const stats = await outboxStats(db);
    expect(stats).toMatchObject({ pending: 1, dead: 1 });
    expect(stats.oldestPendingAgeSeconds).toBeGreaterThanOrEqual(0);
  });

  it("reports the age of the oldest pending message", async () => {
    await clearOutbox();
    await enqueueOutbox(db, [notify(11n, "old")]);
    await db.outboxMessage.update({
      where: { dedupeKey: "old" },
      data: { createdAt: new Date(Date.now() - 120_000) },
    });
    const stats = await outboxStats(db);
    expect(stats.oldestPendingAgeSeconds).toBeGreaterThan(110);
    expect(stats.oldestPendingAgeSeconds).toBeLessThan(200);
  });

  it("settles a Stars refund call: message SENT and payment REFUNDED together, once", async () => {
    await clearOutbox();
    const payment = await refundOwed(db, 77n);
    await enqueueOutbox(db, [
      {
        dedupeKey: `refund:${payment.telegramChargeId}`,
        chatId: 77n,
        method: "refundStarPayment",
        payload: { user_id: 77, telegram_payment_charge_id: payment.telegramChargeId },
      },
    ]);
    const [m] = await claimDueOutbox(db, { limit: 1, claimMs: 60_000 });
    expect(await completeStarRefund(db, m!, payment.telegramChargeId)).toBe("refunded");
    expect(await completeStarRefund(db, m!, payment.telegramChargeId)).toBe("claim-lost");
    const after = await db.payment.findUniqueOrThrow({ where: { id: payment.id } });
    expect(after.status).toBe("REFUNDED");
    expect(after.refundedAt).not.toBeNull();
  });
});
