import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLockManager, type LockManager } from "@orderbot/lock";
import {
  archiveAof,
  auditRedisArgs,
  checkOrdersHadLocks,
  checkoutLockKey,
  createTestDatabase,
  parseAof,
  readLeases,
  startRedisServer,
  type RedisServer,
  type TestDatabase,
} from "@orderbot/testkit";

const NS = "audit-test";
const HASH_KEY = "audit-test-hash-key-0123456789";
const kinds = { checkout: { ttlMs: 5_000, waitMs: 0, outage: "refuse" as const, personal: true } };
let dir: string;
let server: RedisServer;
let testDb: TestDatabase;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "audit-test-"));
  server = await startRedisServer({ args: auditRedisArgs(dir) });
  testDb = await createTestDatabase();
});
afterAll(async () => {
  await server.dispose();
  await rm(dir, { recursive: true, force: true });
  await testDb.drop();
});

/** Takes the checkout lock of `userId` once on a fresh client; returns when the lease was held. */
async function lockOnce(userId: bigint): Promise<number> {
  const redis = new Redis(server.url, { maxRetriesPerRequest: 0 });
  const locks: LockManager = createLockManager({ redis, namespace: NS, kinds, hashKey: HASH_KEY });
  try {
    const outcome = await locks.withLock({ kind: "checkout", id: userId }, async () => Date.now());
    if (outcome.status !== "ok") throw new Error(`lock not acquired: ${outcome.status}`);
    return outcome.value;
  } finally {
    await locks.close();
    redis.disconnect();
  }
}

describe("parseAof", () => {
  it("reads RESP commands and ignores a truncated tail (a file Redis is still writing)", () => {
    const text =
      "*1\r\n$5\r\nMULTI\r\n*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$2\r\nv1\r\n*2\r\n$3\r\nGET\r\n$1";
    expect(parseAof(text)).toEqual([["MULTI"], ["SET", "k", "v1"]]);
  });
});

describe("lock audit from the AOF", () => {
  it("finds the lock module's checkout leases under the key the audit computes, across Redis restarts", async () => {
    const user = 7_000_000_042n;
    const first = await lockOnce(user);
    await server.stop();
    await archiveAof(dir, 1);
    await server.start();
    const second = await lockOnce(user);
    const leases = await readLeases(dir, `{${NS}:lock:checkout:`, kinds.checkout.ttlMs);
    const mine = leases.get(checkoutLockKey(NS, HASH_KEY, user)) ?? [];
    expect(mine).toHaveLength(2);
    expect(mine.some((l) => l.start - 100 <= first && first <= l.end)).toBe(true);
    expect(mine.some((l) => l.start - 100 <= second && second <= l.end)).toBe(true);
  });

  it("passes orders created inside their user's lease and names those that were not", async () => {
    const user = 7_000_000_043n;
    const held = await lockOnce(user);
    const db = testDb.db;
    const product = await db.product.create({
      data: { sku: "AUDIT", titleEn: "t", titleZh: "t", priceMinor: 1, currency: "XTR", stock: 3 },
    });
    const order = (publicId: string, userId: bigint, at: number) =>
      db.order.create({
        data: {
          publicId,
          userId,
          chatId: userId,
          status: "CANCELLED",
          totalMinor: 1,
          currency: "XTR",
          expiresAt: new Date(at),
          idempotencyKey: publicId,
          createdAt: new Date(at),
          items: { create: { productId: product.id, quantity: 1, unitPriceMinor: 1 } },
        },
      });
    await order("LOCKED1", user, held);
    const options = {
      aofDir: dir,
      namespace: NS,
      hashKey: HASH_KEY,
      checkoutTtlMs: kinds.checkout.ttlMs,
    };
    expect(await checkOrdersHadLocks(db, options)).toMatchObject({ ok: true, violations: 0 });
    await order("LATE0001", user, held + 60_000);
    await order("NOLOCK01", 7_000_000_044n, held);
    const result = await checkOrdersHadLocks(db, options);
    expect(result).toMatchObject({ ok: false, violations: 2 });
    expect(result.examples.join(" ")).toMatch(/LATE0001.*NOLOCK01|NOLOCK01.*LATE0001/);
  });
});
