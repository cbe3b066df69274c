// The composition root against real PostgreSQL and Redis: the shop it builds follows the process's
// settings, its connections are its own, and close() ends them, the locks and Redis first.
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { shopSettingsShape } from "@orderbot/core";
import {
  createMetricsRegistry,
  redisTopologyShape,
  silentLogger,
  waitForRedis,
} from "@orderbot/platform";
import { useTestDatabase, useTestRedis } from "@orderbot/testkit";
import { createRuntime, type Runtime, type RuntimeConfig } from "../src/index.ts";

const testDb = useTestDatabase();
const testRedis = useTestRedis();
let runtime: Runtime;
let requestIds = 0;

function configOf(settings: Record<string, string>): RuntimeConfig {
  return {
    ...z.object({ ...redisTopologyShape, ...shopSettingsShape }).parse(settings),
    DATABASE_URL: testDb.url,
    DATABASE_POOL_MAX: 2,
    DATABASE_CONNECT_TIMEOUT_MS: 5000,
    REDIS_URL: testRedis.url,
    REDIS_COMMAND_TIMEOUT_MS: 500,
    LOCK_NAMESPACE: testRedis.namespace,
    LOCK_HASH_KEY: "runtime-test-hash-key-0123",
    SHOP_TIME_ZONE: "Asia/Shanghai",
  };
}

/** Sessions open on the test's database, from the test's own client. */
async function sessions(): Promise<number> {
  const [row] = await testDb.db.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database()`;
  return row?.n ?? 0;
}

beforeAll(async () => {
  runtime = createRuntime(configOf({ PAYMENT_GRACE_MS: "45000", RESERVATION_SECONDS: "40" }), {
    name: "runtime-test",
    logger: silentLogger,
    registry: createMetricsRegistry(),
    requestId: () => `request:${++requestIds}`,
    sessionSettings: { idle_in_transaction_session_timeout: 3000 },
  });
  await waitForRedis(runtime.redis); // as each process does before it serves
});
afterAll(() => runtime?.close());

describe("createRuntime", () => {
  it("builds the shop with the process's rules, over connections of its own", async () => {
    expect(runtime.shop.deps.config).toMatchObject({
      maskKey: "runtime-test-hash-key-0123",
      paymentGraceMs: 45_000,
      reservationTtlMs: 40_000,
      maxUnpaidShare: 0.5,
    });
    expect(runtime.db).not.toBe(testDb.db);
    expect(await runtime.shop.cart.view(7_100_000_009)).toMatchObject({ lines: [] });
    const taken = await runtime.locks.acquire({ kind: "order", id: "runtime-test" });
    expect(taken.ok).toBe(true);
    if (taken.ok) await taken.lease.release();
  });

  it("runs the shop and the reports on the one clock it was given", async () => {
    const clock = { now: () => new Date("2031-03-04T20:00:00Z") }; // 5 March in Shanghai
    const clocked = createRuntime(configOf({}), {
      name: "runtime-test-clock",
      logger: silentLogger,
      registry: createMetricsRegistry(),
      clock,
    });
    try {
      expect(clocked.shop.deps.clock).toBe(clock);
      const report = await clocked.reports.today({ lowStockThreshold: 0 });
      expect(report).toMatchObject({ day: "2031-03-05", timeZone: "Asia/Shanghai" });
    } finally {
      await clocked.close();
    }
  });

  it("gives every database session the settings it was asked for", async () => {
    const [row] = await runtime.db.$queryRaw<{ timeout: string }[]>`
      SELECT current_setting('idle_in_transaction_session_timeout') AS timeout`;
    expect(row?.timeout).toBe("3s");
  });

  it("closes the locks and Redis, then the pool", async () => {
    const other = createRuntime(configOf({}), {
      name: "runtime-test-closed",
      logger: silentLogger,
      registry: createMetricsRegistry(),
    });
    await other.db.$queryRaw`SELECT 1`;
    const before = await sessions();
    await other.close();
    await expect(other.redis.ping()).rejects.toThrow();
    await expect(other.locks.acquire({ kind: "order", id: "after-close" })).rejects.toThrow();
    // The pool's session ends (the server may take a moment to count it gone).
    for (let i = 0; i < 40 && (await sessions()) >= before; i++) await sleep(50);
    expect(await sessions()).toBeLessThan(before);
  });
});
