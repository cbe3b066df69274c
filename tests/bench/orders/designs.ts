// The designs the orders bench compares, and the shop instances they run on: the shop's per-user
// checkout lock, one global lock around every order, the floor (one SQL function call, bare pg)
// and the stack's floor (that call through Prisma under the checkout lock).
import pg from "pg";
import { createDatabase, type Database } from "@orderbot/db";
import type { LockManager } from "@orderbot/lock";
import { shopLockManager } from "@orderbot/testkit";
import { createRedis, Registry, waitForRedis, type Redis } from "@orderbot/platform";
import { createShop, defaultShopConfig, LOCK_KINDS, type Shop } from "@orderbot/core";
import { reserveOrder, type PlaceOrderResult } from "@orderbot/core/orders";
import { countRedisCommands } from "../profile/counters.ts";
import { floorReserve, floorReserveThroughPrisma } from "./floor.ts";

export const POOL_MAX = 16;
const MASK_KEY = "bench-mask-key-0123456789";

export interface Instance {
  shop: Shop;
  db: Database;
  redis: Redis;
  locks: LockManager;
  /** A bare pg pool of the same size, for the floor. */
  floor: pg.Pool;
}

export interface Design {
  name: string;
  place(instance: Instance, userId: bigint, sku: string): Promise<{ status: string }>;
}

export const FLOOR = "floor: one SQL function call, bare pg, no lock";
export const STACK_FLOOR =
  "the stack's floor: the floor's call through Prisma, under the checkout lock";

export const designs: Design[] = [
  {
    name: "orderbot: per-user checkout lock + conditional update",
    place: (instance, userId, sku) =>
      instance.shop.orders.placeOrder({
        userId,
        chatId: userId,
        items: [{ sku, quantity: 1 }],
        idempotencyKey: `bench-${userId}`,
      }),
  },
  {
    name: "naive: one global lock around every order",
    async place(instance, userId, sku) {
      const input = {
        userId,
        chatId: userId,
        items: [{ sku, quantity: 1 }],
        idempotencyKey: `bench-${userId}`,
      };
      const outcome = await instance.locks.withLock(
        { kind: "global", id: "orders" },
        () => reserveOrder(instance.shop.deps, input),
        {
          waitMs: 60_000,
        },
      );
      return outcome.status === "ok"
        ? outcome.value
        : ({ status: outcome.status === "busy" ? "busy" : "unavailable" } as PlaceOrderResult);
    },
  },
  { name: FLOOR, place: (instance, userId, sku) => floorReserve(instance.floor, userId, sku) },
  {
    // What no design on this stack can beat: the least a reservation through Prisma under the
    // per-user checkout lock costs (one lock, one statement, one unlock). A measurement, not a
    // design: it checks nothing the floor does not.
    name: STACK_FLOOR,
    async place(instance, userId, sku) {
      const outcome = await instance.locks.withLock(
        { kind: "checkout", id: userId },
        () => floorReserveThroughPrisma(instance.db, userId, sku),
        { waitMs: 0 },
      );
      return outcome.status === "ok" ? outcome.value : { status: outcome.status };
    },
  },
];
export const [PROJECT, GLOBAL] = designs.map((d) => d.name) as [string, string];

/**
 * One shop instance, as a bot replica has: its own pool, Redis connection and lock manager; with
 * no cap on open orders and a long pool wait, since it measures the locks, not load shedding.
 */
export async function startUncappedInstance(
  databaseUrl: string,
  redisUrl: string,
): Promise<Instance> {
  const db = createDatabase({ url: databaseUrl, poolMax: POOL_MAX, connectTimeoutMs: 30_000 });
  const redis = createRedis({ url: redisUrl, commandTimeoutMs: 2_000 });
  await waitForRedis(redis);
  countRedisCommands(redis);
  const registry = new Registry();
  const locks = shopLockManager({
    redis,
    namespace: "bench:orders",
    hashKey: MASK_KEY,
    registry,
    kinds: { ...LOCK_KINDS, global: { ttlMs: 10_000, waitMs: 60_000, outage: "refuse" } },
  });
  // Reservations never expire during a run; the pool wait is generous, since the point is the
  // locks' cost, not load shedding.
  const shop = createShop({
    db,
    locks,
    registry,
    config: {
      ...defaultShopConfig(MASK_KEY),
      maxOpenOrders: 1_000,
      transactionMaxWaitMs: 30_000,
    },
  });
  const floor = new pg.Pool({ connectionString: databaseUrl, max: POOL_MAX });
  return { shop, db, redis, locks, floor };
}

export async function closeInstance(instance: Instance): Promise<void> {
  await instance.locks.close();
  instance.redis.disconnect();
  await instance.db.$disconnect();
  await instance.floor.end();
}
