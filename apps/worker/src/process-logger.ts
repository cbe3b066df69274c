import { createLogger, type Logger } from "@orderbot/platform";
import type { WorkerConfig } from "./config.ts";

/**
 * The worker process's logger, scrubbed as the bot's is: by key and pattern, then the process's
 * secret values on every line written (createLogger's `secrets`).
 */
export function createProcessLogger(
  config: WorkerConfig,
  out: NodeJS.WritableStream = process.stdout,
): Logger {
  return createLogger({
    level: config.LOG_LEVEL,
    pretty: config.NODE_ENV === "development",
    name: "worker",
    ...(out === process.stdout ? {} : { destination: out }),
    secrets: [
      config.BOT_TOKEN,
      config.METRICS_TOKEN ?? "",
      config.LOCK_HASH_KEY,
      config.REDIS_SENTINEL_PASSWORD,
    ],
  }).child({ worker: config.WORKER_ID });
}
