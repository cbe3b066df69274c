import { createLogger, scrubSecrets, type Logger } from "@orderbot/platform";
import type { WorkerConfig } from "./config.ts";

/**
 * The worker process's logger, scrubbed as the bot's is: by key and pattern (createLogger), then
 * the process's secret values on every line written (JSON output only; pretty output is
 * development's).
 */
export function createProcessLogger(
  config: WorkerConfig,
  out: NodeJS.WritableStream = process.stdout,
): Logger {
  const pretty = config.NODE_ENV === "development";
  const secrets = [
    config.BOT_TOKEN,
    config.METRICS_TOKEN ?? "",
    config.LOCK_HASH_KEY,
    config.REDIS_SENTINEL_PASSWORD,
  ];
  return createLogger({
    level: config.LOG_LEVEL,
    pretty,
    name: "worker",
    ...(pretty ? {} : { destination: scrubSecrets(out, secrets) }),
  }).child({ worker: config.WORKER_ID });
}
