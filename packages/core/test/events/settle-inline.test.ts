// A payer's "payment received" is an event due after a grace: the bot's own reply settles it, so
// that the relay does not say it again, unless a relay has taken it already.
import { describe, expect, it } from "vitest";
import { runTransaction } from "@orderbot/db";
import { expandEvents, recordEvent } from "../../src/events/index.ts";
import { claimDueOutbox } from "../../src/outbox/index.ts";
import { addProduct, placed, unique, user } from "../support/fixtures.ts";
import { useShopHarness } from "../support/shop.ts";

const h = useShopHarness();
const EXPAND = { batchSize: 100, fallbackChat: undefined, maxBatches: 100 };

/** A `payment.received` for a new order of `customer`, due at `notBefore`; returns its delivery key. */
async function received(customer: bigint, notBefore: Date): Promise<string> {
  const p = await addProduct(h.db, { stock: 5 });
  const order = await placed(h.shop, customer, [{ sku: p.sku, quantity: 1 }]);
  const key = unique("received");
  const event = { kind: "payment.received", orderId: order.id, codesDelivered: false } as const;
  await runTransaction(h.db, (tx) =>
    recordEvent(tx, event, { dedupeKey: key, deliveryKey: key, notBefore }, undefined),
  );
  return key;
}

const deliveriesOf = (key: string) =>
  h.db.delivery.findMany({ where: { event: { deliveryKey: key } } });

describe("an event told inline", () => {
  it("is not expanded before it is due, and once settled, never", async () => {
    const key = await received(user(1), new Date(Date.now() + 60 * 60_000));
    await expandEvents(h.db, EXPAND);
    expect(await deliveriesOf(key)).toEqual([]);
    expect(await h.shop.outbox.settleInline(key)).toBe(true);
    expect(await h.shop.outbox.settleInline(key)).toBe(false);
    await h.db.event.updateMany({ where: { deliveryKey: key }, data: { notBefore: null } });
    await expandEvents(h.db, EXPAND);
    expect(await deliveriesOf(key)).toEqual([]);
  });

  it("settles a due delivery no relay took, and not one a relay holds", async () => {
    const past = new Date(Date.now() - 1_000);
    const [said, taken] = [await received(user(2), past), await received(user(3), past)];
    await expandEvents(h.db, EXPAND);
    const claimed = await claimDueOutbox(h.db, { limit: 1_000, claimMs: 30_000 });
    const held = claimed.filter((m) => m.dedupeKey.startsWith(`${taken}:`));
    expect(held).toHaveLength(1);
    // Claimed with the other one: put it back untaken, as a relay's claim that never came.
    await h.db.delivery.updateMany({
      where: { event: { deliveryKey: said } },
      data: { attempts: 0 },
    });
    expect(await h.shop.outbox.settleInline(said)).toBe(true);
    expect(await h.shop.outbox.settleInline(taken)).toBe(false);
    expect(await deliveriesOf(said)).toMatchObject([
      { chatId: user(2), status: "SENT", attempts: 0 },
    ]);
    expect(await deliveriesOf(taken)).toMatchObject([{ chatId: user(3), status: "PENDING" }]);
  });
});
