// A shop on real PostgreSQL and Redis for one test file, and more "instances" of it: each with its
// own Prisma pool, Redis connection and lock manager, as separate bot or worker processes have.
import { afterAll, beforeAll } from "vitest";
import { createDatabase, type Database } from "@orderbot/db";
import type { LockKindConfig, LockManager } from "@orderbot/lock";
import { createRedis, Registry, waitForRedis, type Redis } from "@orderbot/platform";
import {
  createTestDatabase,
  createTestRedis,
  shopLockManager,
  type TestDatabase,
  type TestRedis,
} from "@orderbot/testkit";
import {
  createShop,
  defaultShopConfig,
  LOCK_KINDS,
  type CoreConfig,
  type Shop,
} from "../../src/index.ts";
import { TestClock } from "./clock.ts";

export const MASK_KEY = "test-mask-key-0123456789";

export interface Instance {
  shop: Shop;
  db: Database;
  redis: Redis;
  locks: LockManager;
  registry: Registry;
}

export interface InstanceOptions {
  /** Rules other than the shop's defaults: the test's name says why. */
  config?: Partial<CoreConfig>;
  /** Another Redis (a server of the test's own, to stop). */
  redisUrl?: string;
  kinds?: Record<string, LockKindConfig>;
  poolMax?: number;
  /** How long a query waits for a free pool connection (ms); 10 s unless a test queues more. */
  connectTimeoutMs?: number;
  /** Each Redis command's timeout (ms); 1 s unless a test under heavy load needs more. */
  redisCommandTimeoutMs?: number;
  /** Redis is known to be down: do not wait for the connection. */
  redisDown?: boolean;
}

export interface HarnessOptions extends InstanceOptions {
  /** Where the harness's clock starts (ISO time); 2026-12-01T12:00Z when left out. */
  clockStart?: string;
  /** The test database's default time zone (`ALTER DATABASE … SET timezone`), before any instance connects. */
  databaseTimeZone?: string;
}

export interface ShopHarness {
  testDb: TestDatabase;
  testRedis: TestRedis;
  clock: TestClock;
  /** The first instance; its db is the one assertions read through. */
  main: Instance;
  db: Database;
  shop: Shop;
  /** Another bot/worker instance on the same database and Redis. */
  instance(options?: InstanceOptions): Promise<Instance>;
  close(): Promise<void>;
}

export async function createHarness({
  databaseTimeZone,
  clockStart,
  ...options
}: HarnessOptions = {}): Promise<ShopHarness> {
  const testDb = await createTestDatabase();
  if (databaseTimeZone) {
    await testDb.db.$executeRawUnsafe(
      `ALTER DATABASE "${testDb.name}" SET timezone TO '${databaseTimeZone}'`,
    );
  }
  const testRedis = await createTestRedis();
  const clock = new TestClock(clockStart === undefined ? undefined : Date.parse(clockStart));
  const closers: (() => Promise<void>)[] = [];

  async function instance(opts: InstanceOptions = {}): Promise<Instance> {
    const merged = { ...options, ...opts, config: { ...options.config, ...opts.config } };
    const db = createDatabase({
      url: testDb.url,
      poolMax: merged.poolMax ?? 20,
      connectTimeoutMs: merged.connectTimeoutMs ?? 10_000,
    });
    const redis = createRedis({
      url: merged.redisUrl ?? testRedis.url,
      commandTimeoutMs: merged.redisCommandTimeoutMs ?? 1_000,
    });
    redis.on("error", () => {}); // outage tests stop Redis on purpose; the lock manager reports it
    if (!merged.redisDown) await waitForRedis(redis);
    const subscriber = redis.duplicate({ enableOfflineQueue: true, lazyConnect: true });
    subscriber.on("error", () => {});
    const registry = new Registry();
    const locks = shopLockManager({
      redis,
      namespace: testRedis.namespace,
      kinds: merged.kinds ?? LOCK_KINDS,
      hashKey: MASK_KEY,
      subscriber,
      breaker: { failureThreshold: 3, coolDownMs: 500 },
      registry,
    });
    const shop = createShop({
      db,
      locks,
      clock,
      registry,
      config: { ...defaultShopConfig(MASK_KEY), ...merged.config },
    });
    closers.push(async () => {
      await locks.close();
      subscriber.disconnect();
      redis.disconnect();
      await db.$disconnect();
    });
    return { shop, db, redis, locks, registry };
  }

  const main = await instance();
  return {
    testDb,
    testRedis,
    clock,
    main,
    db: main.db,
    shop: main.shop,
    instance,
    async close() {
      for (const close of closers.reverse()) await close();
      await testRedis.cleanup();
      await testDb.drop();
    },
  };
}

/**
 * The hoarding cap off (`maxUnpaidShare` 1): for a race for every unit of a product, which unpaid
 * holds could not win under the shop's default cap. The cap has its own tests (stock/hoarding).
 */
export const HOARDING_CAP_OFF = { maxUnpaidShare: 1 } as const satisfies Partial<CoreConfig>;

/**
 * createHarness for one test file: opened in the file's beforeAll, closed in its afterAll. Its
 * fields are there from that beforeAll on.
 *
 * @example
 * const h = useShopHarness({ config: { maxOpenOrders: 1_000 } });
 */
export function useShopHarness(options: HarnessOptions = {}): Omit<ShopHarness, "close"> {
  let opened: ShopHarness | undefined;
  const open = (): ShopHarness => {
    if (!opened) throw new Error("the shop harness opens in the fixture's beforeAll");
    return opened;
  };
  beforeAll(async () => {
    opened = await createHarness(options);
  });
  afterAll(() => opened?.close());
  // Each field is read from the opened harness when a test reads it.
  return new Proxy({} as Omit<ShopHarness, "close">, {
    get: (_, field) => Reflect.get(open(), field),
  });
}
