import { describe, expect, it } from "vitest";
import { runTransaction } from "@orderbot/db";
import { claimDueOutbox, enqueueOutbox } from "../../src/outbox/index.ts";
import { unique, user } from "../support/fixtures.ts";
import { useShopHarness } from "../support/shop.ts";

const h = useShopHarness();

const notify = (dedupeKey: string) => ({
  dedupeKey,
  chatId: user(1),
  method: "notify" as const,
  payload: { template: "order-expired" as const, params: { orderId: "ABC" } },
});

describe("outbox", () => {
  it("queues a message once per dedupe key, inside a transaction or not", async () => {
    const key = unique("dk");
    expect(await h.shop.outbox.enqueue([notify(key)])).toBe(1);
    expect(
      await runTransaction(h.db, (tx) => enqueueOutbox(tx, [notify(key), notify(`${key}-2`)])),
    ).toBe(1);
    expect(
      await Promise.all(
        Array.from({ length: 5 }, () => h.shop.outbox.enqueue([notify(`${key}-3`)])),
      ),
    ).toEqual(expect.arrayContaining([1, 0]));
    expect(await h.db.outboxMessage.count({ where: { dedupeKey: { startsWith: key } } })).toBe(3);
  });

  it("is rolled back with the transaction that queued it", async () => {
    const key = unique("rolled-back");
    await expect(
      runTransaction(h.db, async (tx) => {
        await enqueueOutbox(tx, [notify(key)]);
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await h.db.outboxMessage.count({ where: { dedupeKey: key } })).toBe(0);
  });

  it("settles a message the bot said itself, once, unless a relay has taken it already", async () => {
    const key = unique("inline");
    const inAMinute = new Date(Date.now() + 60_000);
    await h.shop.outbox.enqueue([
      { ...notify(`${key}-said`), notBefore: inAMinute },
      notify(`${key}-taken`),
    ]);
    const [claimed] = await claimDueOutbox(h.db, { limit: 100, claimMs: 30_000 }).then((all) =>
      all.filter((m) => m.dedupeKey === `${key}-taken`),
    );
    expect(claimed).toBeDefined(); // a relay holds it: it may be on its way already

    expect(await h.shop.outbox.settleInline(`${key}-said`)).toBe(true);
    expect(await h.shop.outbox.settleInline(`${key}-said`)).toBe(false);
    expect(await h.shop.outbox.settleInline(`${key}-taken`)).toBe(false);
    expect(await h.shop.outbox.settleInline(`${key}-unknown`)).toBe(false);
    const rows = await h.db.outboxMessage.findMany({
      where: { dedupeKey: { startsWith: key } },
      orderBy: { dedupeKey: "asc" },
    });
    expect(rows).toMatchObject([
      { dedupeKey: `${key}-said`, status: "SENT", attempts: 0, nextAttemptAt: inAMinute },
      { dedupeKey: `${key}-taken`, status: "PENDING", attempts: 1 },
    ]);
    expect(rows[0]!.sentAt).not.toBeNull();
  });
});
