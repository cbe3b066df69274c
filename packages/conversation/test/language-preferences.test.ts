import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedis, maskId, silentLogger, waitForRedis } from "@orderbot/platform";
import {
  createTestDatabase,
  createTestRedis,
  startRedisServer,
  type TestDatabase,
  type TestRedis,
} from "@orderbot/testkit";
import { readCacheEpoch } from "@orderbot/db";
import { systemClock } from "@orderbot/core";
import { createCustomers } from "@orderbot/core/customers";
import { createLanguagePreferences } from "../src/index.ts";

const customersOf = (db: TestDatabase["db"]) => createCustomers({ db, clock: systemClock });

const mask = (id: bigint | number) => maskId(id, "language-test-key");
let testRedis: TestRedis;
let testDb: TestDatabase;

beforeAll(async () => {
  [testRedis, testDb] = await Promise.all([createTestRedis(), createTestDatabase()]);
});
afterAll(() => Promise.all([testRedis.cleanup(), testDb.drop()]));

describe("language preferences", () => {
  it("stores each customer's language in PostgreSQL, cached under a key without their id", async () => {
    const prefs = createLanguagePreferences({
      db: testDb.db,
      customers: customersOf(testDb.db),
      redis: testRedis.redis,
      namespace: testRedis.namespace,
      mask,
      logger: silentLogger,
    });
    expect(await prefs.get(777_000_111)).toBeNull();
    expect(await prefs.set(777_000_111, "zh")).toBe(true);
    expect(await prefs.set(777_000_222, "en")).toBe(true);
    expect(await prefs.get(777_000_111)).toBe("zh");
    expect(await prefs.get(777_000_222n)).toBe("en");
    const rows = await testDb.db.customer.findMany({ orderBy: { userId: "asc" } });
    expect(rows.map((r) => [r.userId, r.language])).toEqual([
      [777_000_111n, "zh"],
      [777_000_222n, "en"],
    ]);
    const keys = await testRedis.redis.keys(`${testRedis.namespace}:lang:*`);
    expect(keys).toHaveLength(2);
    expect(keys.join()).not.toContain("777000");
  });

  it("remembers the first language seen, and never overwrites a choice with it", async () => {
    const prefs = createLanguagePreferences({
      db: testDb.db,
      customers: customersOf(testDb.db),
      redis: testRedis.redis,
      namespace: `${testRedis.namespace}:first`,
      mask,
      logger: silentLogger,
    });
    expect(await prefs.remember(777_000_333, "zh")).toBe("zh");
    // Recorded as a customer in core, first and last seen now.
    const customer = await customersOf(testDb.db).get(777_000_333);
    expect(customer).toMatchObject({ language: "zh", lastSeenAt: customer?.firstSeenAt });
    expect(customer?.lastSeenAt).toBeInstanceOf(Date);
    expect(await prefs.get(777_000_333)).toBe("zh");
    await prefs.set(777_000_333, "en");
    expect(await prefs.remember(777_000_333, "zh")).toBe("en");
    expect(await prefs.get(777_000_333)).toBe("en");
  });

  it("answers a cache miss from the stored choice, not from the language Telegram reports", async () => {
    const namespace = `${testRedis.namespace}:miss`;
    const prefs = createLanguagePreferences({
      db: testDb.db,
      customers: customersOf(testDb.db),
      redis: testRedis.redis,
      namespace,
      mask,
      logger: silentLogger,
    });
    await prefs.set(777_000_444, "zh");
    const key = `${namespace}:lang:${await readCacheEpoch(testDb.db)}:${mask(777_000_444)}`;
    await testRedis.redis.del(key);
    expect(await prefs.remember(777_000_444, "en")).toBe("zh");
    expect(await testRedis.redis.get(key)).toBe("zh");
    const row = await testDb.db.customer.findUnique({ where: { userId: 777_000_444n } });
    expect(row?.language).toBe("zh");
  });

  it("never serves another database's copy: a new database with the same Redis", async () => {
    const namespace = `${testRedis.namespace}:epoch`;
    const prefsOf = (db: TestDatabase) =>
      createLanguagePreferences({
        db: db.db,
        customers: customersOf(db.db),
        redis: testRedis.redis,
        namespace,
        mask,
        logger: silentLogger,
      });
    expect(await prefsOf(testDb).remember(777_000_555, "zh")).toBe("zh");
    const fresh = await createTestDatabase();
    try {
      // The same user id starts again in a database that has never seen them.
      const prefs = prefsOf(fresh);
      expect(await prefs.get(777_000_555)).toBeNull();
      expect(await prefs.remember(777_000_555, "en")).toBe("en");
      expect(await prefsOf(testDb).get(777_000_555)).toBe("zh");
    } finally {
      await fresh.drop();
    }
  });

  it("reads through to PostgreSQL when Redis is down, so the choice is not lost", async () => {
    const server = await startRedisServer();
    const redis = createRedis({ url: server.url, commandTimeoutMs: 200 });
    await waitForRedis(redis);
    try {
      const prefs = createLanguagePreferences({
        db: testDb.db,
        customers: customersOf(testDb.db),
        redis,
        namespace: "down",
        mask,
        logger: silentLogger,
      });
      expect(await prefs.set(1, "zh")).toBe(true);
      await server.stop();
      expect(await prefs.get(1)).toBe("zh");
      expect(await prefs.set(1, "en")).toBe(true);
      expect(await prefs.get(1)).toBe("en");
    } finally {
      redis.disconnect();
      await server.dispose();
    }
  });
});
