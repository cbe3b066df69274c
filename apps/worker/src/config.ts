// The worker's configuration: read from the environment once, here and nowhere else, validated, and
// passed down explicitly. Invalid configuration stops the process with one line per problem.
import os from "node:os";
import path from "node:path";
import { z } from "zod";
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

const schema = z
  .object({
    ...sharedConfigShape,
    ...redisTopologyShape,
    BOT_TOKEN: z
      .string()
      .regex(/^\d+:[A-Za-z0-9_-]{20,}$/, "must look like 123456:ABC-DEF... (from @BotFather)"),
    /** Another Bot API server (a local one, or @orderbot/fake-telegram); Telegram's when unset. */
    TELEGRAM_API_ROOT: z.url().optional(),
    OPERATOR_GROUP_ID: z
      .string()
      .regex(/^-\d+$/, "must be a group chat id (negative number)")
      .transform(BigInt)
      .optional(),
    HOST: z.string().default("127.0.0.1"),
    WORKER_PORT: port.default(8090),
    /** When set, /metrics needs `Authorization: Bearer <token>`. */
    METRICS_TOKEN: z.string().min(16).optional(),
    /** Shown in logs and metrics to tell the replicas apart. */
    WORKER_ID: z
      .string()
      .regex(/^[A-Za-z0-9._:-]{1,64}$/)
      .default(`${os.hostname()}:${process.pid}`),
    /** Language of notifications whose recipient's language is unknown. */
    NOTIFY_LOCALE: z.enum(["en", "zh"]).default("en"),
    /**
     * PostgreSQL ends a worker session that sits inside a transaction this long without a word
     * (ms; 0: never): a paused or hung worker must not hold row locks that the next leader waits on.
     */
    DATABASE_IDLE_TX_TIMEOUT_MS: ms(0).default(10_000),
    /** How long a graceful shutdown may take before the process exits anyway (ms). */
    SHUTDOWN_GRACE_MS: ms(100).default(15_000),

    /** How often each job runs (ms); every wait is jittered. */
    EXPIRE_INTERVAL_MS: ms(100).default(5000),
    OUTBOX_INTERVAL_MS: ms(50).default(1000),
    REFUND_INTERVAL_MS: ms(100).default(10_000),
    ADMIN_REFRESH_INTERVAL_MS: ms(1000).default(10 * 60_000),
    REPORT_INTERVAL_MS: ms(1000).default(10 * 60_000),
    PRUNE_INTERVAL_MS: ms(1000).default(60 * 60_000),
    /** The Stars reconciliation (reconcile-stars): how often, and how old a difference must be to count (ms). */
    RECONCILE_INTERVAL_MS: ms(1000).default(10 * 60_000),
    RECONCILE_GRACE_MS: ms(0).default(10 * 60_000),
    /** Lease of the job leader locks (ms); default: the `job` lock kind's. A paused leader loses its job after this. */
    JOB_LOCK_TTL_MS: ms(500).optional(),

    /**
     * leader: one worker at a time expires reservations (the `job` lock); shared: every worker
     * does, side by side (SKIP LOCKED keeps them apart). See docs/worker.md.
     */
    EXPIRE_MODE: z.enum(["leader", "shared"]).default("leader"),
    /** Orders released per expiry transaction. */
    EXPIRE_BATCH_SIZE: z.coerce.number().int().min(1).max(10_000).default(500),
    /** Mirrors the bot's payment grace: a PAYING order expires this long after its expiry (ms). */
    PAYMENT_GRACE_MS: ms(1000).default(5 * 60_000),

    /** Outbox: messages claimed per round. */
    OUTBOX_BATCH_SIZE: z.coerce.number().int().min(1).max(1000).default(50),
    /** Outbox: attempts (failed sends) before a message goes to the dead-letter state. */
    OUTBOX_MAX_ATTEMPTS: z.coerce.number().int().min(1).default(8),
    /** Outbox: messages per second across all chats (Telegram allows about 30). */
    OUTBOX_GLOBAL_PER_SECOND: z.coerce.number().min(1).max(30).default(25),
    /** Outbox: added to every pacing interval, so network jitter never breaks a limit (ms). */
    OUTBOX_PACING_MARGIN_MS: ms(0).default(100),
    /** Telegram's window for a group's 20 messages, shared with the bot's replies (ms); tests shorten it. */
    GROUP_RATE_WINDOW_MS: ms(1000).default(60_000),
    /** Outbox: first retry delay after a 5xx or network error, doubled per attempt, up to the max (ms). */
    OUTBOX_RETRY_BASE_MS: ms(10).default(1000),
    OUTBOX_RETRY_MAX_MS: ms(10).default(5 * 60_000),
    /** Outbox: a claimed message is hidden from other relays this long (ms); a crashed relay's claims reappear after it. */
    OUTBOX_CLAIM_MS: ms(1000).default(30_000),
    /** Outbox: only messages whose pacing slot comes within this are held; later ones go back (ms). */
    OUTBOX_HORIZON_MS: ms(100).default(5000),
    /** Outbox: one Bot API call's timeout (ms). */
    OUTBOX_SEND_TIMEOUT_MS: ms(500).default(10_000),
    /** Outbox: sent messages are deleted this long after sending (ms); dead letters are kept. */
    OUTBOX_RETENTION_MS: ms(60_000).default(7 * 86_400_000),

    /** Admin lists older than this are fetched again (ms). */
    ADMIN_STALE_MS: ms(1000).default(30 * 60_000),
    /**
     * The daily report of the shop's day D (SHOP_TIME_ZONE) is sent at the first run after this
     * hour of day D+1, in that time zone.
     */
    REPORT_HOUR: z.coerce.number().int().min(0).max(23).default(0),
    /** Renamed: the hour is now one of the shop's own day. */
    REPORT_HOUR_UTC: z
      .undefined({ error: "renamed to REPORT_HOUR, an hour in SHOP_TIME_ZONE" })
      .optional(),
    /** Products at or below this stock are listed in the daily report. */
    LOW_STOCK_THRESHOLD: z.coerce.number().int().min(0).default(5),
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

export type WorkerConfig = z.infer<typeof schema>;

/**
 * Validates an environment; throws ConfigError listing every problem. `defaulted`: the names whose
 * value came from `.env.example` alone (from `loadEnvFiles`), refused with NODE_ENV=production.
 */
export function parseWorkerConfig(
  env: Record<string, string | undefined>,
  defaulted: ReadonlySet<string> = new Set(),
): WorkerConfig {
  return parseConfig(schema, env, { defaulted, developmentOnly: DEVELOPMENT_ONLY_SETTINGS });
}

/** The process's configuration: the environment, then .env, then .env.example. */
export function loadWorkerConfig(): WorkerConfig {
  const defaulted = loadEnvFiles(path.resolve(import.meta.dirname, "../../.."), process.env);
  return parseWorkerConfig(process.env, defaulted);
}
