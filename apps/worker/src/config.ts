// The worker's configuration: read from the environment once, here and nowhere else, validated, and
// passed down explicitly. Invalid configuration stops the process with one line per problem.
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { shopSettingsShape } from "@orderbot/core";
import {
  DEVELOPMENT_ONLY_SETTINGS,
  loadEnvFiles,
  parseConfig,
  port,
  redisTopologyShape,
  sharedConfigShape,
  withLockNamespace,
} from "@orderbot/platform";

const ms = (min: number) => z.coerce.number().int().min(min);

/** The worker's settings; docs/configuration.md is generated from it (`npm run docs:config`). */
export const workerConfigSchema = z
  .object({
    ...sharedConfigShape,
    ...redisTopologyShape,
    ...shopSettingsShape,
    BOT_TOKEN: z
      .string()
      .regex(/^\d+:[A-Za-z0-9_-]{20,}$/, "must look like 123456:ABC-DEF... (from @BotFather)")
      .describe("The bot's token, for the worker's sends; never logged."),
    TELEGRAM_API_ROOT: z
      .url()
      .optional()
      .describe(
        "Another Bot API server (a local one, or @orderbot/fake-telegram); unset: Telegram's.",
      ),
    HOST: z
      .string()
      .default("127.0.0.1")
      .describe("Where the process listens: webhook (bot), /healthz, /readyz, /metrics."),
    WORKER_PORT: port
      .default(8090)
      .describe("The worker's port: /healthz, /readyz, /metrics (keep it private)."),
    METRICS_TOKEN: z
      .string()
      .min(16)
      .optional()
      .describe("/metrics needs `Authorization: Bearer <token>`; the bot serves it on PORT then."),
    WORKER_ID: z
      .string()
      .regex(/^[A-Za-z0-9._:-]{1,64}$/)
      .default(`${os.hostname()}:${process.pid}`)
      .meta({
        description: "Tells the replicas apart in logs and metrics.",
        defaultText: "hostname:pid",
      }),
    NOTIFY_LOCALE: z
      .enum(["en", "zh"])
      .default("en")
      .describe("Language of notifications whose recipient's language is unknown."),
    DATABASE_IDLE_TX_TIMEOUT_MS: ms(0)
      .default(10_000)
      .describe(
        "PostgreSQL ends a worker session idle in a transaction this long (ms; 0: never), freeing its row locks.",
      ),
    SHUTDOWN_GRACE_MS: ms(100)
      .default(15_000)
      .describe("How long a graceful stop may take before the process exits anyway (ms)."),
    EXPIRE_INTERVAL_MS: ms(100)
      .default(5000)
      .describe("How often expire-reservations runs (ms, jittered)."),
    OUTBOX_INTERVAL_MS: ms(50)
      .default(1000)
      .describe("How often the outbox relay runs (ms, jittered)."),
    REFUND_INTERVAL_MS: ms(100)
      .default(10_000)
      .describe("How often the refunds job runs (ms, jittered)."),
    ADMIN_REFRESH_INTERVAL_MS: ms(1000)
      .default(10 * 60_000)
      .describe("How often admin-refresh runs (ms, jittered)."),
    REPORT_INTERVAL_MS: ms(1000)
      .default(10 * 60_000)
      .describe("How often the daily-report job checks whether a report is due (ms)."),
    PRUNE_INTERVAL_MS: ms(1000)
      .default(60 * 60_000)
      .describe("How often prune-processed-updates and prune-outbox run (ms)."),
    RECONCILE_INTERVAL_MS: ms(1000)
      .default(10 * 60_000)
      .describe("How often reconcile-stars compares payments with Telegram's Stars ledger (ms)."),
    RECONCILE_GRACE_MS: ms(0)
      .default(10 * 60_000)
      .describe("A difference younger than this (ms) is not a finding yet: payments on their way."),
    JOB_LOCK_TTL_MS: ms(500)
      .optional()
      .describe("Lease of the job leader locks (ms); unset: the `job` lock kind's 30 s."),
    EXPIRE_MODE: z
      .enum(["leader", "shared"])
      .default("leader")
      .describe(
        "leader: one worker at a time expires reservations; shared: every worker does (SKIP LOCKED).",
      ),
    EXPIRE_BATCH_SIZE: z.coerce
      .number()
      .int()
      .min(1)
      .max(10_000)
      .default(500)
      .describe("Orders released per expiry transaction."),
    OUTBOX_BATCH_SIZE: z.coerce
      .number()
      .int()
      .min(1)
      .max(1000)
      .default(50)
      .describe("Outbox: messages claimed per round."),
    OUTBOX_MAX_ATTEMPTS: z.coerce
      .number()
      .int()
      .min(1)
      .default(8)
      .describe("Outbox: failed sends before a message becomes a dead letter."),
    OUTBOX_GLOBAL_PER_SECOND: z.coerce
      .number()
      .min(1)
      .max(30)
      .default(25)
      .describe("Outbox: messages per second across all chats (Telegram allows about 30)."),
    OUTBOX_PACING_MARGIN_MS: ms(0)
      .default(100)
      .describe("Outbox: added to every pacing interval, so jitter never breaks a limit (ms)."),
    GROUP_RATE_WINDOW_MS: ms(1000)
      .default(60_000)
      .describe(
        "Telegram's window for a group's 20 messages (ms); only fake-Telegram runs shorten it.",
      ),
    OUTBOX_RETRY_BASE_MS: ms(10)
      .default(1000)
      .describe("Outbox: first retry after a 5xx or network error, doubled per attempt (ms)."),
    OUTBOX_RETRY_MAX_MS: ms(10)
      .default(5 * 60_000)
      .describe("Outbox: longest retry delay (ms)."),
    OUTBOX_CLAIM_MS: ms(1000)
      .default(30_000)
      .describe(
        "Outbox: a claim hides a message from other relays this long (ms); at least horizon + send timeout + 1 s.",
      ),
    OUTBOX_HORIZON_MS: ms(100)
      .default(5000)
      .describe("Outbox: a round holds only messages whose pacing slot comes within this (ms)."),
    OUTBOX_SEND_TIMEOUT_MS: ms(500)
      .default(10_000)
      .describe("Outbox: one Bot API call's timeout (ms)."),
    OUTBOX_RETENTION_MS: ms(60_000)
      .default(7 * 86_400_000)
      .describe(
        "Outbox: sent messages are deleted this long after sending (ms); dead letters are kept.",
      ),
    ADMIN_STALE_MS: ms(1000)
      .default(30 * 60_000)
      .describe("Operator groups' admin lists older than this are fetched again (ms)."),
    REPORT_HOUR: z.coerce
      .number()
      .int()
      .min(0)
      .max(23)
      .default(0)
      .describe(
        "The daily report of day D goes out after this hour of day D+1, in SHOP_TIME_ZONE.",
      ),
    REPORT_HOUR_UTC: z
      .undefined({ error: "renamed to REPORT_HOUR, an hour in SHOP_TIME_ZONE" })
      .optional()
      .describe("Retired, renamed to REPORT_HOUR: the worker refuses to start with it set."),
    LOW_STOCK_THRESHOLD: z.coerce
      .number()
      .int()
      .min(0)
      .default(5)
      .describe("Products at or below this stock are listed in the daily report."),
  })
  .superRefine((c, ctx) => {
    if (c.OUTBOX_RETRY_BASE_MS > c.OUTBOX_RETRY_MAX_MS) {
      ctx.addIssue({
        code: "custom",
        path: ["OUTBOX_RETRY_BASE_MS"],
        message: "must not exceed OUTBOX_RETRY_MAX_MS",
      });
    }
    // A claim must outlast the wait for a pacing slot plus the call, or a slow send would race the
    // next claim of the same message.
    const needed = c.OUTBOX_HORIZON_MS + c.OUTBOX_SEND_TIMEOUT_MS + 1000;
    if (c.OUTBOX_CLAIM_MS < needed) {
      ctx.addIssue({
        code: "custom",
        path: ["OUTBOX_CLAIM_MS"],
        message: `must be at least OUTBOX_HORIZON_MS + OUTBOX_SEND_TIMEOUT_MS + 1000 (${needed})`,
      });
    }
  })
  .transform(withLockNamespace);

export type WorkerConfig = z.infer<typeof workerConfigSchema>;

/**
 * Validates an environment; throws ConfigError listing every problem. `defaulted`: the names whose
 * value came from `.env.example` alone (from `loadEnvFiles`), refused with NODE_ENV=production.
 */
export function parseWorkerConfig(
  env: Record<string, string | undefined>,
  defaulted: ReadonlySet<string> = new Set(),
): WorkerConfig {
  return parseConfig(workerConfigSchema, env, {
    defaulted,
    developmentOnly: DEVELOPMENT_ONLY_SETTINGS,
  });
}

/** The process's configuration: the environment, then .env, then .env.example. */
export function loadWorkerConfig(): WorkerConfig {
  const defaulted = loadEnvFiles(path.resolve(import.meta.dirname, "../../.."), process.env);
  return parseWorkerConfig(process.env, defaulted);
}
