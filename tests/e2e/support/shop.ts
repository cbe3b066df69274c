// The shop as it runs in production, for end-to-end tests: bot processes (apps/bot/src/main.ts,
// bundled by the testkit's spawnApp) behind one webhook URL (a round-robin proxy, as a load
// balancer would be), the test kit as Telegram, a database of the test's own and a namespace of its
// own on the shared test Redis.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll } from "vitest";
import { Api } from "grammy";
import type { Shop } from "@orderbot/core";
import { seedCatalog, type Database } from "@orderbot/db";
import { createMetricsRegistry, silentLogger } from "@orderbot/platform";
import {
  createTestDatabase,
  createTestRedis,
  freePort,
  spawnApp,
  startRoundRobinProxy,
  type AppProcess,
  type RoundRobinProxy,
  type TestDatabase,
  type TestRedis,
} from "@orderbot/testkit";
import {
  startFakeTelegram,
  type FakeTelegram,
  type FakeTelegramOptions,
} from "@orderbot/fake-telegram";
import {
  createWorker,
  createWorkerRuntime,
  parseWorkerConfig,
  runtimeDeps,
  type Worker,
} from "@orderbot/worker";
import { expectCleanLogs } from "./logs.ts";

export const WEBHOOK_PATH = "/telegram/webhook";
export const OWNER_ID = 7_100_000_001;

export interface ShopOptions {
  mode?: "webhook" | "polling";
  /** Bot processes behind the proxy (webhook mode); default 2. */
  replicas?: number;
  /** Extra environment for the bot processes and the worker in this process. */
  env?: Record<string, string>;
  kit?: FakeTelegramOptions;
}

export interface E2eShop {
  kit: FakeTelegram;
  db: Database;
  bots: AppProcess[];
  /** Each replica's own base URL (bypassing the proxy). */
  replicaUrls: string[];
  /** Where Telegram (the kit) posts updates: the proxy in front of the replicas. */
  webhookUrl: string;
  secret: string;
  proxy: RoundRobinProxy | null;
  /** The domain services on the same database, for setting up and checking state. */
  shop: Shop;
  /** One pass of the worker's outbox relay, in this process. */
  relayOutbox(): Promise<void>;
  /** POSTs a body to the webhook URL (or another base URL); the secret header unless `headers` replaces it. */
  post(
    body: string | object,
    headers?: Record<string, string>,
    baseUrl?: string,
  ): Promise<Response>;
  /** Stops every process gracefully, checks their logs, and releases everything. */
  stop(): Promise<void>;
}

export async function startShop(options: ShopOptions = {}): Promise<E2eShop> {
  const mode = options.mode ?? "webhook";
  const replicas = mode === "polling" ? 1 : (options.replicas ?? 2);
  const testDb: TestDatabase = await createTestDatabase({ poolMax: 5 });
  const testRedis: TestRedis = await createTestRedis();
  await seedCatalog(testDb.db);
  const kit = await startFakeTelegram({
    webhook: { retryBaseMs: 100, retryMaxMs: 1_000 },
    ...options.kit,
  });
  const secret = `e2e-secret-${randomBytes(16).toString("hex")}`;
  const hashKey = "e2e-lock-hash-key-0123456789";
  const ports = await Promise.all(Array.from({ length: replicas }, () => freePort()));
  const proxy =
    mode === "webhook"
      ? await startRoundRobinProxy(ports.map((p) => `http://127.0.0.1:${p}`))
      : null;
  const publicUrl = proxy?.url ?? `http://127.0.0.1:${ports[0]}`;

  const bots = await Promise.all(
    ports.map((port, i) =>
      spawnApp({
        name: `bot-${i + 1}`,
        entry: "apps/bot/src/main.ts",
        env: {
          NODE_ENV: "production",
          LOG_LEVEL: "debug",
          BOT_TOKEN: kit.token,
          BOT_MODE: mode,
          TELEGRAM_API_ROOT: kit.apiRoot,
          WEBHOOK_SECRET: secret,
          PUBLIC_URL: publicUrl,
          HOST: "127.0.0.1",
          PORT: String(port),
          DATABASE_URL: testDb.url,
          DATABASE_POOL_MAX: "5",
          REDIS_URL: testRedis.url,
          LOCK_NAMESPACE: testRedis.namespace,
          LOCK_HASH_KEY: hashKey,
          OWNER_IDS: String(OWNER_ID),
          RATE_LIMIT_PER_WINDOW: "1000",
          ...options.env,
        },
      }),
    ),
  );
  await Promise.all(bots.map((bot, i) => bot.waitReady(`http://127.0.0.1:${ports[i]}/healthz`)));
  await Promise.all(bots.map((bot) => waitForLine(bot, '"msg":"bot started"')));

  // The worker in this process, built as its main builds it.
  const registry = createMetricsRegistry();
  const workerConfig = parseWorkerConfig({
    NODE_ENV: "test",
    DATABASE_URL: testDb.url,
    REDIS_URL: testRedis.url,
    LOCK_NAMESPACE: testRedis.namespace,
    LOCK_HASH_KEY: hashKey,
    BOT_TOKEN: kit.token,
    TELEGRAM_API_ROOT: kit.apiRoot,
    ...options.env,
  });
  const runtime = createWorkerRuntime(workerConfig, { logger: silentLogger, registry });
  const { shop } = runtime;
  const worker: Worker = createWorker({
    config: workerConfig,
    ...runtimeDeps(runtime),
    api: new Api(kit.token, { apiRoot: kit.apiRoot }),
    logger: silentLogger,
    registry,
  });

  return {
    kit,
    db: testDb.db,
    bots,
    replicaUrls: ports.map((port) => `http://127.0.0.1:${port}`),
    webhookUrl: `${publicUrl}${WEBHOOK_PATH}`,
    secret,
    proxy,
    shop,
    async relayOutbox() {
      const outcome = await worker.runOnce("outbox-relay");
      if (outcome !== "ran") throw new Error(`outbox relay did not run: ${outcome}`);
    },
    post(body, headers = { "x-telegram-bot-api-secret-token": secret }, baseUrl = publicUrl) {
      return fetch(`${baseUrl}${WEBHOOK_PATH}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: typeof body === "string" ? body : JSON.stringify(body),
      });
    },
    async stop() {
      const codes = await Promise.all(bots.map((bot) => bot.stop()));
      await proxy?.close();
      await kit.close();
      await worker.stop();
      await runtime.close();
      await testRedis.cleanup();
      await testDb.drop();
      expectCleanLogs(
        bots.flatMap((bot) => bot.output),
        [kit.token, secret],
      );
      for (const code of codes)
        if (code !== 0) throw new Error(`a bot process exited with ${code}`);
    },
  };
}

/** Resolves once the process has written a line containing `text`. */
export async function waitForLine(
  app: AppProcess,
  text: string,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!app.output.some((line) => line.includes(text))) {
    if (Date.now() > deadline)
      throw new Error(`${app.name} never logged ${text}:\n${app.output.slice(-20).join("\n")}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * startShop for one test file: started in the file's beforeAll, stopped (its logs checked) in its
 * afterAll. Its fields are there from that beforeAll on.
 *
 * @example
 * const shop = useShop({ replicas: 2 });
 */
export function useShop(options: ShopOptions = {}): Omit<E2eShop, "stop"> {
  let started: E2eShop | undefined;
  beforeAll(async () => {
    started = await startShop(options);
  });
  afterAll(() => started?.stop());
  return new Proxy({} as Omit<E2eShop, "stop">, {
    get(_, field) {
      if (!started) throw new Error("the shop starts in the fixture's beforeAll");
      return Reflect.get(started, field);
    },
  });
}
