import { Api } from "grammy";
import { createShop } from "@orderbot/core";
import type { Database } from "@orderbot/db";
import {
  createMetricsRegistry,
  silentLogger,
  type Logger,
  type Registry,
} from "@orderbot/platform";
import { freePort, spawnApp, type AppProcess } from "@orderbot/testkit";
import { parseWorkerConfig, type WorkerConfig } from "../../src/config.ts";
import { createWorker, type Worker } from "../../src/worker.ts";
import { buildLocks, HASH_KEY } from "./locks.ts";

export interface Services {
  databaseUrl: string;
  redisUrl: string;
  namespace: string;
  /** The fake Telegram's API root and token. */
  apiRoot: string;
  token: string;
}

/** Jobs not under test wait a long time, so a test sees only what it drives. */
const QUIET = {
  EXPIRE_INTERVAL_MS: "3600000",
  OUTBOX_INTERVAL_MS: "3600000",
  REFUND_INTERVAL_MS: "3600000",
  ADMIN_REFRESH_INTERVAL_MS: "3600000",
  REPORT_INTERVAL_MS: "3600000",
};

/** The environment a worker process gets: the test's database, Redis namespace and fake Telegram. */
export function workerEnv(
  services: Services,
  overrides: Record<string, string> = {},
): Record<string, string> {
  return {
    NODE_ENV: "test",
    LOG_LEVEL: "info",
    DATABASE_URL: services.databaseUrl,
    DATABASE_POOL_MAX: "4",
    REDIS_URL: services.redisUrl,
    LOCK_NAMESPACE: services.namespace,
    LOCK_HASH_KEY: HASH_KEY,
    BOT_TOKEN: services.token,
    TELEGRAM_API_ROOT: services.apiRoot,
    ...QUIET,
    ...overrides,
  };
}

export interface InProcessWorker {
  worker: Worker;
  registry: Registry;
  config: WorkerConfig;
  close(): Promise<void>;
}

/** A whole worker in this process, with connections of its own (as a separate process would have). */
export async function startWorker(
  db: Database,
  services: Services,
  overrides: Record<string, string> = {},
  options: { logger?: Logger; start?: boolean } = {},
): Promise<InProcessWorker> {
  const config = parseWorkerConfig(workerEnv(services, overrides));
  const registry = createMetricsRegistry();
  const { locks, redis, close } = await buildLocks(services.redisUrl, services.namespace, registry);
  const logger = options.logger ?? silentLogger;
  const shop = createShop({
    db,
    locks,
    config: { maskKey: HASH_KEY, paymentGraceMs: config.PAYMENT_GRACE_MS },
    logger,
    registry,
  });
  const api = new Api(config.BOT_TOKEN, { apiRoot: services.apiRoot, timeoutSeconds: 10 });
  const worker = createWorker({
    config,
    db,
    redis,
    locks,
    expireDue: shop.orders.expireDue,
    groups: shop.groups,
    api,
    logger,
    registry,
  });
  if (options.start !== false) await worker.start();
  return {
    worker,
    registry,
    config,
    async close() {
      await worker.stop();
      await close();
    },
  };
}

export interface WorkerProcess {
  app: AppProcess;
  port: number;
  metricsUrl: string;
}

/** `tsx apps/worker/src/main.ts` as a real process. */
export async function spawnWorker(
  name: string,
  services: Services,
  overrides: Record<string, string> = {},
): Promise<WorkerProcess> {
  const port = await freePort();
  const app = spawnApp({
    name,
    entry: "apps/worker/src/main.ts",
    env: workerEnv(services, { WORKER_PORT: String(port), WORKER_ID: name, ...overrides }),
  });
  await app.waitReady(`http://127.0.0.1:${port}/healthz`);
  return { app, port, metricsUrl: `http://127.0.0.1:${port}/metrics` };
}

/** Polls until `check` resolves true; throws with `what` after `timeoutMs`. */
export async function waitUntil(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs = 60_000,
  everyMs = 100,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for: ${what}`);
}
