import { describe, expect, it } from "vitest";
import { createLockManager, outagePolicies } from "@orderbot/lock";
import { createRedis } from "@orderbot/platform";
import { defaultShopConfig, LOCK_KINDS, shopSettingsSchema } from "../src/index.ts";

describe("core config", () => {
  it("is the environment's defaults around the one required field", () => {
    expect(defaultShopConfig("0123456789abcdef")).toEqual({
      reservationTtlMs: 900_000,
      paymentGraceMs: 300_000,
      paymentNoticeDelayMs: 20_000,
      maxLines: 10,
      maxUnitsPerLine: 10,
      maxOpenOrders: 3,
      maxUnpaidShare: 0.5,
      maxPayingExtensions: 3,
      checkPayableDeadlineMs: 8_000,
      replayWaitMs: 2_000,
      transactionTimeoutMs: 5_000,
      transactionMaxWaitMs: 2_000,
      publicIdLength: 8,
      maskKey: "0123456789abcdef",
      shippingOptions: [],
    });
  });

  it("is validated once, by the environment's schema, every problem at once", () => {
    const parsed = shopSettingsSchema.safeParse({ ORDER_MAX_LINES: "0", PAYMENT_GRACE_MS: "10" });
    expect(parsed.error?.issues.map((issue) => issue.path.join("."))).toEqual([
      "ORDER_MAX_LINES",
      "PAYMENT_GRACE_MS",
    ]);
  });
});

describe("LOCK_KINDS", () => {
  it('is docs/architecture.md, "Locks", as data', () => {
    expect(Object.keys(LOCK_KINDS).sort()).toEqual([
      "checkout",
      "group-admins",
      "job",
      "order",
      "report",
      "stock-batch",
      "update",
    ]);
    expect(LOCK_KINDS.checkout).toMatchObject({ waitMs: 0, outage: "refuse", personal: true });
    expect(LOCK_KINDS.order.outage).toBe("proceed-db-only"); // payments; cancel refuses by itself
    expect(LOCK_KINDS.order.waitMs).toBeLessThanOrEqual(2_000); // pre-checkout must answer within 10 s
    expect(LOCK_KINDS["stock-batch"]).toMatchObject({ waitMs: 0, outage: "refuse" });
    expect(LOCK_KINDS["group-admins"]).toMatchObject({ waitMs: 0, outage: "skip", personal: true });
    expect(LOCK_KINDS.update).toMatchObject({ waitMs: 0, outage: "proceed-db-only" });
    for (const kind of ["job", "report"] as const)
      expect(LOCK_KINDS[kind]).toMatchObject({ waitMs: 0, outage: "skip" });
  });

  it("is accepted by the lock manager and its outage layer as it is", async () => {
    const redis = createRedis(
      { url: "redis://127.0.0.1:1", connectTimeoutMs: 10 },
      { lazyConnect: true },
    );
    const locks = createLockManager({
      redis,
      namespace: "test:kinds",
      kinds: LOCK_KINDS,
      hashKey: "0123456789abcdef",
      layers: { outage: outagePolicies() },
    });
    expect(locks.keyFor({ kind: "checkout", id: 1 })).toMatch(/^\{test:kinds:lock:checkout:h\./);
    await locks.close();
    redis.disconnect();
  });
});
