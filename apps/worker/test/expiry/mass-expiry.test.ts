// Acceptance: 20,000 expired reservations across 200 products, released by one worker process,
// then by two at once: all EXPIRED, stock restored exactly, ledger consistent, none released twice.
import { describe, expect, it } from "vitest";
import { makeDue, releasesBy, spawnWorker, withAppName } from "@orderbot/testkit";
import { allExpired, releasedOnce, useMassExpiry } from "../support/mass-expiry.ts";

const ORDERS = 20_000;
const PRODUCTS = 200;

const { running, scenario: fixture } = useMassExpiry({ orders: ORDERS, products: PRODUCTS });

const expireEnv = (mode: "leader" | "shared") => ({
  EXPIRE_INTERVAL_MS: "200",
  EXPIRE_BATCH_SIZE: "500",
  EXPIRE_MODE: mode,
});

describe("mass expiry", () => {
  it("one worker process releases 20,000 reservations across 200 products exactly once", async () => {
    const { testDb, services } = await fixture();
    const db = testDb.db;
    expect(await makeDue(db)).toBe(ORDERS);
    running.push(
      await spawnWorker(
        "expire-1",
        { ...services, databaseUrl: withAppName(testDb.url, "expire-1") },
        expireEnv("leader"),
      ),
    );

    expect(await allExpired(db, ORDERS)).toEqual(releasedOnce(ORDERS));
    expect(await releasesBy(db)).toEqual({ "expire-1": ORDERS });
  }, 180_000);

  it("two worker processes at once (shared mode, both expiring side by side) release each one exactly once", async () => {
    const { testDb, services } = await fixture();
    const db = testDb.db;
    running.push(
      ...(await Promise.all(
        ["expire-a", "expire-b"].map((name) =>
          spawnWorker(
            name,
            { ...services, databaseUrl: withAppName(testDb.url, name) },
            expireEnv("shared"),
          ),
        ),
      )),
    );
    // Both are up before anything is due, so both get to the work.
    expect(await makeDue(db)).toBe(ORDERS);

    expect(await allExpired(db, ORDERS)).toEqual(releasedOnce(ORDERS));
    const by = await releasesBy(db);
    expect((by["expire-a"] ?? 0) + (by["expire-b"] ?? 0)).toBe(ORDERS);
    expect(by["expire-a"]).toBeGreaterThan(0);
    expect(by["expire-b"]).toBeGreaterThan(0);
  }, 180_000);
});
