// The shop a person tries in the browser, for one test file: a database and a Redis namespace of
// its own, the fake Telegram with its web client, one bot and one worker (the same harness as
// `npm run try` and the demo), and a headless Chromium page. All stopped in the file's afterAll.
import { afterAll, beforeAll } from "vitest";
import type { Browser, Page } from "playwright-core";
import { seedCatalog } from "@orderbot/db";
import {
  createTestDatabase,
  createTestRedis,
  startShopRun,
  type ShopRun,
  type TestDatabase,
  type TestRedis,
} from "@orderbot/testkit";
import { launchChromium } from "./chromium.ts";

export interface BrowserShop {
  run: ShopRun;
  page: Page;
}

export function useBrowserShop(): BrowserShop {
  let database: TestDatabase | undefined;
  let redis: TestRedis | undefined;
  let browser: Browser | undefined;
  const shop = {} as BrowserShop;
  beforeAll(async () => {
    database = await createTestDatabase({ poolMax: 3 });
    await seedCatalog(database.db);
    redis = await createTestRedis();
    shop.run = await startShopRun({
      databaseUrl: database.url,
      redisUrl: redis.url,
      bots: 1,
      workers: 1,
      lockNamespace: redis.namespace,
      lockHashKey: "browser-test-lock-hash-key-01",
      workerEnv: { OUTBOX_INTERVAL_MS: "300" },
      kit: { controlApi: true },
    });
    browser = await launchChromium();
    shop.page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await shop.run?.stop();
    await redis?.cleanup();
    await database?.drop();
  });
  return shop;
}
