// Events go once all their deliveries were sent, after the retention; a dead delivery keeps its
// event (the dead letter's only trace).
import { describe, expect, it } from "vitest";
import { runTransaction } from "@orderbot/db";
import { expandEvents, recordEvent } from "../../src/events/index.ts";
import { pruneDeliveredEvents } from "../../src/outbox/index.ts";
import { useShopHarness } from "../support/shop.ts";

const h = useShopHarness();
const CHAT = -1_009_000_000_500n;

const outside = (charge: string) => ({
  kind: "refund.outside" as const,
  amountMinor: 5,
  currency: "XTR",
  telegramChargeId: charge,
  orderId: "",
  orderStatus: "",
});

describe("pruning events", () => {
  it("deletes an old event whose deliveries were all sent, and keeps one with a dead letter", async () => {
    await runTransaction(h.db, async (tx) => {
      await recordEvent(tx, outside("sent"), { dedupeKey: "e:sent" }, CHAT);
      await recordEvent(tx, outside("dead"), { dedupeKey: "e:dead" }, CHAT);
      await recordEvent(tx, outside("new"), { dedupeKey: "e:new" }, CHAT);
    });
    await expandEvents(h.db, { batchSize: 10, fallbackChat: CHAT, maxBatches: 5 });
    await h.db.$executeRaw`UPDATE deliveries SET status = 'SENT', sent_at = now()`;
    await h.db.$executeRaw`UPDATE deliveries SET status = 'DEAD' WHERE dedupe_key LIKE 'e:dead:%'`;
    await h.db.$executeRaw`
      UPDATE events SET expanded_at = expanded_at - interval '2 days' WHERE dedupe_key <> 'e:new'`;

    expect(await pruneDeliveredEvents(h.db, 86_400_000, 100)).toBe(1);
    const left = await h.db.$queryRaw<{ key: string }[]>`
      SELECT dedupe_key AS key FROM events ORDER BY dedupe_key`;
    expect(left.map((e) => e.key)).toEqual(["e:dead", "e:new"]);
    const [deliveries] = await h.db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM deliveries`;
    expect(deliveries?.n).toBe(2);
  });
});
