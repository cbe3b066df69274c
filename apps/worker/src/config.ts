// The worker's configuration: read from the environment once, here and nowhere else.
import path from "node:path";
import { z } from "zod";
import { loadEnvFiles, parseConfig, port, sharedConfigShape } from "@orderbot/platform";

const schema = z.object({
  ...sharedConfigShape,
  BOT_TOKEN: z.string().regex(/^\d+:[A-Za-z0-9_-]{20,}$/, "must look like 123456:ABC-DEF... (from @BotFather)"),
  TELEGRAM_API_ROOT: z.url().optional(),
  OPERATOR_GROUP_ID: z
    .string()
    .regex(/^-\d+$/, "must be a group chat id (negative number)")
    .transform(BigInt)
    .optional(),
  HOST: z.string().default("127.0.0.1"),
  WORKER_PORT: port.default(8090),
  METRICS_TOKEN: z.string().min(16).optional(),
  /** How often each job runs (ms); every wait is jittered. */
  EXPIRE_INTERVAL_MS: z.coerce.number().int().min(100).default(5000),
  OUTBOX_INTERVAL_MS: z.coerce.number().int().min(50).default(1000),
  REFUND_INTERVAL_MS: z.coerce.number().int().min(100).default(10_000),
  ADMIN_REFRESH_INTERVAL_MS: z.coerce.number().int().min(1000).default(10 * 60_000),
  REPORT_INTERVAL_MS: z.coerce.number().int().min(1000).default(10 * 60_000),
  /** Orders released per expiry transaction. */
  EXPIRE_BATCH_SIZE: z.coerce.number().int().min(1).max(10_000).default(500),
  /** Outbox: attempts before a message goes to the dead-letter state. */
  OUTBOX_MAX_ATTEMPTS: z.coerce.number().int().min(1).default(8),
  /** Outbox: messages per second across all chats (Telegram allows about 30). */
  OUTBOX_GLOBAL_PER_SECOND: z.coerce.number().min(1).max(30).default(25),
});

export type WorkerConfig = z.infer<typeof schema>;

export function parseWorkerConfig(env: Record<string, string | undefined>): WorkerConfig {
  return parseConfig(schema, env);
}

export function loadWorkerConfig(): WorkerConfig {
  loadEnvFiles(path.resolve(import.meta.dirname, "../../.."));
  return parseWorkerConfig(process.env);
}
