// The worker process: configuration, connections, the jobs and the health server, and a graceful
// shutdown. Everything else is importable (createWorker) and runs in tests without a process.
import closeWithGrace from "close-with-grace";
import { Api } from "grammy";
import { ConfigError, createMetricsRegistry, waitForRedis, withDeadline } from "@orderbot/platform";
import { loadWorkerConfig, type WorkerConfig } from "./config.ts";
import { createProcessLogger } from "./process-logger.ts";
import { createWorkerRuntime, runtimeDeps } from "./runtime.ts";
import { createWorker } from "./worker.ts";

function loadConfigOrExit(): WorkerConfig {
  try {
    return loadWorkerConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}

const config = loadConfigOrExit();
const logger = createProcessLogger(config);
const registry = createMetricsRegistry({ defaultMetrics: true });

const runtime = createWorkerRuntime(config, { logger, registry });
const { db, redis } = runtime;
const api = new Api(config.BOT_TOKEN, {
  ...(config.TELEGRAM_API_ROOT ? { apiRoot: config.TELEGRAM_API_ROOT } : {}),
  timeoutSeconds: Math.ceil(config.OUTBOX_SEND_TIMEOUT_MS / 1000),
});
// The relay's claim outlasts a send only if nothing added to this client can stretch it.
api.config.use((prev, method, payload, signal) =>
  withDeadline(
    config.OUTBOX_SEND_TIMEOUT_MS,
    method,
    (s) => prev(method, payload, s as never),
    signal as never,
  ),
);
const worker = createWorker({ config, ...runtimeDeps(runtime), api, logger, registry });

closeWithGrace(
  {
    delay: config.SHUTDOWN_GRACE_MS,
    logger: { error: (message: unknown) => logger.error({ err: message }, "shutdown") },
  },
  async ({ signal, err }) => {
    if (err) logger.error({ err }, "worker stopping after an error");
    else logger.info({ signal }, "worker stopping: finishing the current batches");
    await worker.stop();
    await runtime.close();
    logger.info("worker stopped");
  },
);

try {
  await db.$queryRaw`SELECT 1`;
  // Without Redis the worker still starts: its jobs pause until Redis answers (the `job` lock
  // kind's outage policy), and /readyz says why.
  await waitForRedis(redis, 5_000).catch(() =>
    logger.warn("Redis is not reachable yet; jobs wait for it"),
  );
  await worker.start({ listen: true });
  logger.info(
    { host: config.HOST, port: config.WORKER_PORT, expireMode: config.EXPIRE_MODE },
    "worker started",
  );
} catch (error) {
  logger.fatal({ err: error }, "worker failed to start");
  await runtime.close().catch(() => undefined);
  process.exit(1);
}
