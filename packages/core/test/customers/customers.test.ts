// A customer in core: any way in records them with one call; first contact stores their language,
// later ones keep it and move "last seen" on at most once an hour (no write in between); an
// opt-out and "unreachable since" have a home, and writing again makes a customer reachable.
import { describe, expect, it } from "vitest";
import { LAST_SEEN_RESOLUTION_MS } from "../../src/customers/index.ts";
import { user } from "../support/fixtures.ts";
import { useShopHarness } from "../support/shop.ts";

const h = useShopHarness();

/** The row's version as PostgreSQL keeps it: any write to the row changes it. */
async function rowVersion(userId: bigint): Promise<string> {
  const [row] = await h.db.$queryRaw<{ v: string }[]>`
    SELECT xmin::text AS v FROM customers WHERE user_id = ${userId}`;
  return row!.v;
}

describe("customers", () => {
  it("records a customer once, keeps their language, and sees them again at most hourly", async () => {
    const first = h.clock.now();
    expect(await h.shop.customers.record({ userId: user(1), language: "zh" })).toEqual({
      status: "ok",
      customer: {
        userId: user(1),
        language: "zh",
        firstSeenAt: first,
        lastSeenAt: first,
        broadcastsOptedOutAt: null,
        unreachableSince: null,
      },
    });
    const written = await rowVersion(user(1));

    h.clock.advance(LAST_SEEN_RESOLUTION_MS - 1);
    const again = await h.shop.customers.record({ userId: user(1), language: "en" });
    expect(again).toMatchObject({ customer: { language: "zh", lastSeenAt: first } });
    expect(await rowVersion(user(1))).toBe(written);

    const later = h.clock.advance(1);
    const seen = await h.shop.customers.record({ userId: user(1), language: "en" });
    expect(seen).toMatchObject({
      customer: { language: "zh", firstSeenAt: first, lastSeenAt: later },
    });
    expect(await h.shop.customers.get(user(1))).toEqual(seen.status === "ok" && seen.customer);
    expect(await h.shop.customers.get(user(2))).toBeNull();
  });

  it("takes a customer of the release before, who has no last seen", async () => {
    await h.db.$executeRaw`INSERT INTO customers (user_id, language) VALUES (${user(3)}, 'en')`;
    const now = h.clock.now();
    expect(await h.shop.customers.record({ userId: user(3), language: "zh" })).toMatchObject({
      customer: { language: "en", lastSeenAt: now },
    });
  });

  it("keeps an opt-out from its first time, marks a blocked bot, and a customer who writes is reachable", async () => {
    await h.shop.customers.record({ userId: user(4), language: "en" });
    const optedAt = h.clock.now();
    await h.shop.customers.optOutOfBroadcasts(user(4));
    h.clock.advance(60_000);
    expect(await h.shop.customers.optOutOfBroadcasts(user(4))).toMatchObject({
      customer: { broadcastsOptedOutAt: optedAt },
    });
    const blockedAt = h.clock.now();
    await h.shop.customers.markUnreachable(user(4));
    h.clock.advance(60_000);
    expect(await h.shop.customers.markUnreachable(user(4))).toMatchObject({
      customer: { unreachableSince: blockedAt },
    });

    // Within the hour of last seen, yet written: they are reachable again.
    expect(await h.shop.customers.record({ userId: user(4), language: "en" })).toMatchObject({
      customer: { unreachableSince: null, broadcastsOptedOutAt: optedAt },
    });
    expect(await h.shop.customers.optOutOfBroadcasts(user(4), false)).toMatchObject({
      customer: { broadcastsOptedOutAt: null },
    });
    expect(await h.shop.customers.markUnreachable(user(5))).toEqual({ status: "not-found" });
  });

  it("stores a chosen language, and refuses one the shop does not speak, changing nothing", async () => {
    expect(await h.shop.customers.setLanguage(user(6), "zh")).toMatchObject({
      status: "ok",
      customer: { language: "zh" },
    });
    expect((await h.shop.customers.setLanguage(user(6), "fr")).status).toBe("invalid");
    expect(
      (await h.shop.customers.record({ userId: user(7), language: "fr" as "en" })).status,
    ).toBe("invalid");
    expect(await h.shop.customers.get(user(6))).toMatchObject({ language: "zh" });
    expect(await h.shop.customers.get(user(7))).toBeNull();
  });
});
