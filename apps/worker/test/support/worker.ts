import { Api } from "grammy";
import { createShop, shopConfigOf } from "@orderbot/core";
import type { Database } from "@orderbot/db";
import type { LockKindConfig } from "@orderbot/lock";
import {
  createMetricsRegistry,
  silentLogger,
  type Logger,
  type Registry,
} from "@orderbot/platform";
import { workerEnv, type WorkerServices } from "@orderbot/testkit";
import { parseWorkerConfig, type WorkerConfig } from "../../src/config.ts";
import { currentJobRun } from "../../src/jobs/run-scope.ts";
import { createWorker, type Worker } from "../../src/worker.ts";
import { buildLocks } from "./locks.ts";

export interface InProcessWorker {
  worker: Worker;
  registry: Registry;
  config: WorkerConfig;
  close(): Promise<void>;
}

/** A whole worker in this process, with connections of its own (as a separate process would have). */
export async function startWorker(
  db: Database,
  services: WorkerServices,
  overrides: Record<string, string> = {},
  options: { logger?: Logger; start?: boolean; kinds?: Record<string, LockKindConfig> } = {},
): Promise<InProcessWorker> {
  const config = parseWorkerConfig(workerEnv(services, overrides));
  const registry = createMetricsRegistry();
  const { locks, redis, close } = await buildLocks(
    services.redisUrl,
    services.namespace,
    registry,
    options.kinds,
  );
  const logger = options.logger ?? silentLogger;
  const shop = createShop({
    db,
    locks,
    requestId: currentJobRun,
    config: shopConfigOf(config),
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
    readOrder: shop.orders.get,
    groups: shop.groups,
    ledger: shop.ledger,
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

/** Runs the outbox relay until nothing is pending (retries come due within ms in these tests). */
export async function relayAll(
  w: InProcessWorker,
  db: Database,
  timeoutMs = 60_000,
  everyMs = 20,
): Promise<void> {
  await waitUntil(
    "the outbox settled",
    async () => {
      await w.worker.runOnce("outbox-relay");
      return (await db.outboxMessage.count({ where: { status: "PENDING" } })) === 0;
    },
    timeoutMs,
    everyMs,
  );
}
