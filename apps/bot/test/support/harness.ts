// The whole bot in this process, as main.ts builds it, against real PostgreSQL and Redis and the
// test kit's fake Telegram: for tests that drive features through simulated users.
import type { Shop } from "@orderbot/core";
import { seedCatalog, type Database } from "@orderbot/db";
import type { LockManager } from "@orderbot/lock";
import { createMetricsRegistry, silentLogger } from "@orderbot/platform";
import { createRuntime } from "@orderbot/runtime";
import { updateRequestId } from "../../src/updates/scope.ts";
import {
  createTestDatabase,
  createTestRedis,
  freePort,
  type TestDatabase,
  type TestRedis,
  type WorkerServices,
} from "@orderbot/testkit";
import { startFakeTelegram, type FakeTelegram, type FloodLimits } from "@orderbot/fake-telegram";
import { createBotApp, type BotApp } from "../../src/app.ts";
import { parseBotConfig, type BotConfig } from "../../src/config.ts";

export const WEBHOOK_SECRET = "harness-webhook-secret_0123456789";
export const OWNER_ID = 7_100_000_001;

export interface BotHarness {
  kit: FakeTelegram;
  app: BotApp;
  shop: Shop;
  db: Database;
  config: BotConfig;
  locks: LockManager;
  /** Where a worker process for this bot would connect (testkit's spawnWorker). */
  services: WorkerServices;
  /** POSTs an update to the bot's webhook as Telegram would (with the secret); the HTTP status. */
  postUpdate(update: object): Promise<number>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  mode?: "webhook" | "polling";
  env?: Record<string, string>;
  /** A Redis server of the test's own (to stop or fill it) instead of a namespace on the shared one. */
  redisUrl?: string;
  /** Variables to treat as defaulted from `.env.example` (not chosen), as `loadEnvFiles` reports. */
  defaulted?: string[];
  /** Whether to call `app.start()` (default true); false leaves it to the test. */
  start?: boolean;
  /** The kit's flood control (429s past Telegram's limits); off by default. */
  floodLimits?: FloodLimits | true;
  /** Load the demo catalog (default true); false: an empty shop. */
  catalog?: boolean;
}

export async function startBotHarness(options: HarnessOptions = {}): Promise<BotHarness> {
  const testDb: TestDatabase = await createTestDatabase();
  const testRedis: TestRedis = await createTestRedis();
  const kit = await startFakeTelegram({
    webhook: { retryBaseMs: 50, retryMaxMs: 500 },
    ...(options.floodLimits ? { floodLimits: options.floodLimits } : {}),
  });
  if (options.catalog !== false) await seedCatalog(testDb.db);
  const port = await freePort();
  const config = parseBotConfig(
    {
      NODE_ENV: "test",
      LOG_LEVEL: "silent",
      BOT_TOKEN: kit.token,
      BOT_MODE: options.mode ?? "webhook",
      TELEGRAM_API_ROOT: kit.apiRoot,
      WEBHOOK_SECRET,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      PORT: String(port),
      DATABASE_URL: testDb.url,
      REDIS_URL: options.redisUrl ?? testRedis.url,
      LOCK_NAMESPACE: testRedis.namespace,
      LOCK_HASH_KEY: "harness-hash-key-0123456789",
      OWNER_IDS: String(OWNER_ID),
      GROUP_RATE_WINDOW_MS: "1000",
      ...options.env,
    },
    new Set(options.defaulted),
  );
  const registry = createMetricsRegistry();
  // As main.ts builds it: connections of its own and the shop over them.
  const runtime = createRuntime(config, {
    name: "bot",
    logger: silentLogger,
    registry,
    requestId: updateRequestId,
  });
  const { locks, shop } = runtime;
  const app = createBotApp({
    ...runtime,
    config,
    logger: silentLogger,
    registry,
    // No worker sends what the group's budget queues here: unless the kit limits the group (as
    // Telegram does), the budget has no limit either, so every reply goes out directly.
    ...(options.floodLimits ? {} : { groupRepliesPerWindow: Number.MAX_SAFE_INTEGER }),
  });
  if (options.start !== false) await app.start();
  return {
    kit,
    app,
    shop,
    db: testDb.db,
    config,
    locks,
    services: {
      databaseUrl: testDb.url,
      redisUrl: testRedis.url,
      namespace: testRedis.namespace,
      apiRoot: kit.apiRoot,
      token: kit.token,
    },
    async postUpdate(update) {
      const response = await fetch(new URL("/telegram/webhook", config.PUBLIC_URL), {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-telegram-bot-api-secret-token": WEBHOOK_SECRET,
        },
        body: JSON.stringify(update),
      });
      return response.status;
    },
    async close() {
      await app.close();
      await kit.close();
      await runtime.close();
      await testRedis.cleanup();
      await testDb.drop();
    },
  };
}
