// The worker as a real process (`apps/worker/src/main.ts`) on a test's own database, Redis
// namespace and fake Telegram: the worker's own tests and bench:worker start it this way.
import { freePort } from "../services/redis.ts";
import { spawnApp, type AppProcess } from "./processes.ts";

/** The LOCK_HASH_KEY of workers started here; an in-process lock manager that uses it contends with them. */
export const WORKER_HASH_KEY = "worker-test-hash-key-0123456789";

export interface WorkerServices {
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

/** The environment a worker gets: the test's database, Redis namespace and fake Telegram. */
export function workerEnv(
  services: WorkerServices,
  overrides: Record<string, string> = {},
): Record<string, string> {
  return {
    NODE_ENV: "test",
    LOG_LEVEL: "info",
    DATABASE_URL: services.databaseUrl,
    DATABASE_POOL_MAX: "4",
    REDIS_URL: services.redisUrl,
    LOCK_NAMESPACE: services.namespace,
    LOCK_HASH_KEY: WORKER_HASH_KEY,
    BOT_TOKEN: services.token,
    TELEGRAM_API_ROOT: services.apiRoot,
    ...QUIET,
    ...overrides,
  };
}

export interface WorkerProcess {
  app: AppProcess;
  port: number;
  metricsUrl: string;
}

/** Starts a worker process and waits until its health endpoint answers. */
export async function spawnWorker(
  name: string,
  services: WorkerServices,
  overrides: Record<string, string> = {},
): Promise<WorkerProcess> {
  const port = await freePort();
  const app = await spawnApp({
    name,
    entry: "apps/worker/src/main.ts",
    env: workerEnv(services, { WORKER_PORT: String(port), WORKER_ID: name, ...overrides }),
  });
  await app.waitReady(`http://127.0.0.1:${port}/healthz`);
  return { app, port, metricsUrl: `http://127.0.0.1:${port}/metrics` };
}
