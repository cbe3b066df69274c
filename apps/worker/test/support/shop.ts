// The set-up most worker tests share: a database, a Redis namespace and a fake Telegram of the
// file's own, workers in this process, and the bot's side of the shop when a test needs orders.
import { afterAll, beforeAll } from "vitest";
import { createShop, defaultShopConfig, type Shop } from "@orderbot/core";
import type { Database } from "@orderbot/db";
import {
  startFakeTelegram,
  type FakeTelegram,
  type FakeTelegramOptions,
} from "@orderbot/fake-telegram";
import { createMetricsRegistry, silentLogger } from "@orderbot/platform";
import {
  createTestRedis,
  reserveTestDatabase,
  type TestDatabase,
  type TestRedis,
  type WorkerServices,
} from "@orderbot/testkit";
import { buildLocks, HASH_KEY } from "./locks.ts";
import { startWorker, type InProcessWorker } from "./worker.ts";

export interface WorkerShop {
  readonly testDb: TestDatabase;
  /** The file's database client, there at once (it connects on its first query). */
  readonly db: Database;
  /** The rest is there from the fixture's beforeAll on. */
  readonly t: TestRedis;
  readonly tg: FakeTelegram;
  readonly services: WorkerServices;
  /** A worker in this process on the file's services, closed after the file. */
  startWorker(...args: StartArgs): Promise<InProcessWorker>;
  /** The bot's side: core's services on the file's database, with locks of their own. */
  botShop(): Promise<Shop>;
}

type StartArgs = Parameters<typeof startWorker> extends [unknown, ...infer R] ? R : never;

/**
 * Registers the hooks that open the shop before the file's tests and close it after them.
 *
 * @example
 * const fixture = useWorkerShop({ poolMax: 6 });
 * const { db } = fixture;
 * beforeAll(async () => { w = await fixture.startWorker({}, { start: false }); });
 */
export function useWorkerShop(
  options: { poolMax?: number; telegram?: FakeTelegramOptions } = {},
): WorkerShop {
  const testDb = reserveTestDatabase({ poolMax: options.poolMax });
  let opened: { t: TestRedis; tg: FakeTelegram; services: WorkerServices } | undefined;
  const closers: (() => Promise<void>)[] = [];
  const open = () => {
    if (!opened) throw new Error("the worker shop opens in the fixture's beforeAll");
    return opened;
  };

  beforeAll(async () => {
    await testDb.create();
    const t = await createTestRedis();
    const tg = await startFakeTelegram(options.telegram);
    const services = {
      databaseUrl: testDb.url,
      redisUrl: t.url,
      namespace: t.namespace,
      apiRoot: tg.apiRoot,
      token: tg.token,
    };
    opened = { t, tg, services };
  });
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
    await opened?.tg.close();
    await opened?.t.cleanup();
    await testDb.drop();
  });

  return {
    testDb,
    db: testDb.db,
    get t() {
      return open().t;
    },
    get tg() {
      return open().tg;
    },
    get services() {
      return open().services;
    },
    async startWorker(...args) {
      const worker = await startWorker(open().services, ...args);
      closers.push(() => worker.close());
      return worker;
    },
    async botShop() {
      const { t } = open();
      const botLocks = await buildLocks(t.url, t.namespace);
      closers.push(botLocks.close);
      return createShop({
        db: testDb.db,
        locks: botLocks.locks,
        config: defaultShopConfig(HASH_KEY),
        logger: silentLogger,
        registry: createMetricsRegistry(),
      });
    },
  };
}
