import { Api } from "grammy";
import { LOCK_KINDS } from "@orderbot/core";
import type { Database } from "@orderbot/db";
import type { LockKindConfig } from "@orderbot/lock";
import {
  createMetricsRegistry,
  silentLogger,
  type Logger,
  type Registry,
  waitForRedis,
} from "@orderbot/platform";
import { workerEnv, type WorkerServices } from "@orderbot/testkit";
import { parseWorkerConfig, type WorkerConfig } from "../../src/config.ts";
import { createWorkerRuntime, runtimeDeps } from "../../src/runtime.ts";
import { createWorker, type Worker } from "../../src/worker.ts";

export interface InProcessWorker {
  worker: Worker;
  registry: Registry;
  config: WorkerConfig;
  close(): Promise<void>;
}

/**
 * A whole worker in this process, built as main.ts builds it, with connections of its own (as a
 * separate process would have). Its lock breaker opens after 3 failures and probes after 200 ms,
 * so that tests which stop Redis see it open and close within a test.
 */
export async function startWorker(
  services: WorkerServices,
  overrides: Record<string, string> = {},
  options: { logger?: Logger; start?: boolean; kinds?: Record<string, LockKindConfig> } = {},
): Promise<InProcessWorker> {
  const config = parseWorkerConfig(
    workerEnv(services, { REDIS_COMMAND_TIMEOUT_MS: "500", ...overrides }),
  );
  const registry = createMetricsRegistry();
  const logger = options.logger ?? silentLogger;
  const runtime = createWorkerRuntime(config, {
    logger,
    registry,
    locks: {
      kinds: options.kinds ?? LOCK_KINDS,
      breaker: { failureThreshold: 3, coolDownMs: 200 },
    },
  });
  const api = new Api(config.BOT_TOKEN, { apiRoot: services.apiRoot, timeoutSeconds: 10 });
  const worker = createWorker({ config, ...runtimeDeps(runtime), api, logger, registry });
  // Redis connects in the background, and with no offline queue a command sent before fails: a
  // job run at once would find its lock unavailable. Bounded, for tests that start with Redis down.
  await waitForRedis(runtime.redis, 2_000).catch(() => {});
  if (options.start !== false) await worker.start();
  return {
    worker,
    registry,
    config,
    async close() {
      await worker.stop();
      await runtime.close();
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
      const [left] = await db.$queryRaw<{ n: number }[]>`
        SELECT (SELECT count(*) FROM outbox_messages WHERE status = 'PENDING')
             + (SELECT count(*) FROM deliveries WHERE status = 'PENDING')
             + (SELECT count(*) FROM events WHERE expanded_at IS NULL) AS n`;
      return Number(left?.n) === 0;
    },
    timeoutMs,
    everyMs,
  );
}
