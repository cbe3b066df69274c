// The recipient rule, once for every event: bound groups (as their settings say), or with none the
// configured chat; and the expansion into deliveries, each (event, chat) once.
import { describe, expect, it } from "vitest";
import { runTransaction } from "@orderbot/db";
import {
  CUSTOMER_KINDS,
  expandEvents,
  recordEvent,
  type ShopEvent,
} from "../../src/events/index.ts";
import { claimDueOutbox, enqueueOutbox } from "../../src/outbox/index.ts";
import { unique, user } from "../support/fixtures.ts";
import { useShopHarness } from "../support/shop.ts";

const h = useShopHarness();
const FALLBACK = -1_009_000_000_999n;
const EXPAND = { batchSize: 100, fallbackChat: FALLBACK, maxBatches: 1_000 };

const paid = (orderId: string): ShopEvent => ({
  kind: "order.paid",
  orderId,
  amountMinor: 20,
  currency: "XTR",
  customer: { userId: String(user(1)), name: "Ann" },
  codeTails: [],
});
const low = (sku: string, stock: number): ShopEvent => ({
  kind: "stock.low",
  sku,
  titleEn: "Tea",
  titleZh: "茶",
  stock,
});

function record(event: ShopEvent, key: string): Promise<number> {
  return runTransaction(h.db, (tx) => recordEvent(tx, event, { dedupeKey: key }, FALLBACK));
}

async function deliveredTo(key: string): Promise<string[]> {
  const rows = await h.db.$queryRaw<{ chat_id: bigint }[]>`
    SELECT d.chat_id FROM deliveries d JOIN events e ON e.id = d.event_id
     WHERE e.dedupe_key = ${key} ORDER BY d.chat_id`;
  return rows.map((r) => String(r.chat_id));
}

async function bind(chats: { chatId: bigint; settings: object }[]): Promise<void> {
  await h.db.operatorGroup.createMany({
    data: chats.map((c) => ({ ...c, title: "ops", boundBy: user(1), adminIds: [] })),
  });
}

describe("the recipient rule", () => {
  it("names the configured chat for every kind while no group is bound", async () => {
    const [p, l] = [unique("paid"), unique("low")];
    expect(await record(paid(p), p)).toBe(1);
    expect(await record(low(unique("SKU"), 2), l)).toBe(1);
    await expandEvents(h.db, EXPAND);
    expect(await deliveredTo(p)).toEqual([String(FALLBACK)]);
    expect(await deliveredTo(l)).toEqual([String(FALLBACK)]);
  });

  it("names bound groups as their settings say, and not the configured chat", async () => {
    const loud = -1_009_000_000_001n;
    const quiet = -1_009_000_000_002n;
    await bind([
      { chatId: loud, settings: { lowStockThreshold: 1 } },
      { chatId: quiet, settings: { notifyPaidOrders: false } },
    ]);
    try {
      const [p, l] = [unique("paid"), unique("low")];
      await record(paid(p), p);
      await record(low(unique("SKU"), 2), l);
      await expandEvents(h.db, EXPAND);
      expect(await deliveredTo(p)).toEqual([String(loud)]);
      // 2 left: above loud's threshold of 1, at or below quiet's default of 3.
      expect(await deliveredTo(l)).toEqual([String(quiet)]);
    } finally {
      await h.db.operatorGroup.deleteMany({ where: { chatId: { in: [loud, quiet] } } });
    }
  });

  it("knows the customer kinds the code knows: one list, in SQL and in TypeScript", async () => {
    const [row] = await h.db.$queryRaw<{ kinds: string[] }[]>`
      SELECT customer_event_kinds() AS kinds`;
    expect([...row!.kinds].sort()).toEqual([...CUSTOMER_KINDS].sort());
  });

  it("refuses an event its kind's schema does not allow, and records nothing", async () => {
    const key = unique("bad");
    const bad = { ...paid(key), amountMinor: "20" } as unknown as ShopEvent;
    await expect(record(bad, key)).rejects.toThrow();
    expect(await h.db.$queryRaw`SELECT 1 FROM events WHERE dedupe_key = ${key}`).toEqual([]);
  });

  it("expands one event to 3,000 chats exactly once, with two expanders racing", async () => {
    await h.db.$executeRaw`
      INSERT INTO operator_groups (chat_id, title, admin_ids, bound_by, updated_at)
      SELECT -1002000000000 - n, 'ops', '{}', 1, now() FROM generate_series(1, 3000) n`;
    try {
      const key = unique("paid");
      await record(paid(key), key);
      const other = await h.instance();
      const racers = [h.db, other.db].map((db) => expandEvents(db, { ...EXPAND, batchSize: 250 }));
      const written = await Promise.all(racers);
      expect(written[0]! + written[1]!).toBe(3_000);
      const [counts] = await h.db.$queryRaw<{ all: number; chats: number }[]>`
        SELECT count(*)::int AS all, count(DISTINCT d.chat_id)::int AS chats
          FROM deliveries d JOIN events e ON e.id = d.event_id WHERE e.dedupe_key = ${key}`;
      expect(counts).toEqual({ all: 3_000, chats: 3_000 });
      // A third expander finds nothing left.
      expect(await expandEvents(h.db, EXPAND)).toBe(0);
    } finally {
      await h.db.$executeRaw`DELETE FROM operator_groups WHERE chat_id < -1002000000000`;
    }
  });

  it("shares a relay's batch between deliveries and outbox messages", async () => {
    for (let i = 0; i < 6; i++) {
      const key = unique("many");
      await record(low(key, 1), key);
    }
    await expandEvents(h.db, EXPAND);
    await enqueueOutbox(
      h.db,
      Array.from({ length: 6 }, (_, i) => ({
        dedupeKey: unique("refund"),
        chatId: user(i),
        method: "refundStarPayment" as const,
        payload: { user_id: Number(user(i)), telegram_payment_charge_id: `c${i}` },
      })),
    );
    const claimed = await claimDueOutbox(h.db, { limit: 4, claimMs: 60_000 });
    expect(claimed.map((m) => m.source).sort()).toEqual([
      "delivery",
      "delivery",
      "outbox",
      "outbox",
    ]);
  });
});
