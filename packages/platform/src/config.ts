import { z } from "zod";

/** "a,b,c" → ["a", "b", "c"], ignoring blanks. */
export const csv = z
  .string()
  .default("")
  .transform((value) =>
    value
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean),
  );

/** A comma-separated list of Telegram ids (which exceed 32 bits: kept as bigint). */
export const telegramIds = csv.pipe(
  z.array(
    z
      .string()
      .regex(/^-?\d+$/, "must be a comma-separated list of numeric Telegram ids")
      .transform(BigInt),
  ),
);

export const port = z.coerce.number().int().min(1).max(65_535);

/**
 * The settings every process shares: where PostgreSQL and Redis are, how locks are namespaced and
 * keyed, and how it logs. Each app extends this with its own.
 */
export const sharedConfigShape = {
  NODE_ENV: z
    .enum(["development", "test", "production"])
    .default("development")
    .describe(
      "development: pretty logs; production: JSON lines, and .env.example's values refused.",
    ),
  LOG_LEVEL: z
    .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"])
    .default("info")
    .describe("How much the process logs."),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgresql:// URL")
    .describe("PostgreSQL connection; `npm run services` leaves a server it did not start alone."),
  DATABASE_POOL_MAX: z.coerce
    .number()
    .int()
    .min(1)
    .max(200)
    .default(10)
    .describe("Size of each process's PostgreSQL pool."),
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .default(5000)
    .describe("How long to wait for a PostgreSQL connection (ms)."),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, "must be a redis:// URL")
    .describe(
      "Redis for locks, dedupe claims and caches; losing its data costs availability only.",
    ),
  REDIS_COMMAND_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(10)
    .max(60_000)
    .default(500)
    .describe("A Redis command slower than this (ms) counts as an outage."),
  LOCK_NAMESPACE: z
    .preprocess(
      (value) => (value === "" ? undefined : value),
      z
        .string()
        .regex(/^[a-z0-9][a-z0-9:_-]{0,63}$/, "lowercase letters, digits and : _ - only")
        .optional(),
    )
    .describe(
      "Prefix of every lock key, so two shops never share one; unset: `<env>:bot<id>` from NODE_ENV and BOT_TOKEN.",
    ),
  LOCK_HASH_KEY: z
    .string()
    .min(16, "must be at least 16 characters")
    .describe(
      "HMAC key that turns user and chat ids into opaque lock keys and log fields; rotating it renames lock keys.",
    ),
  SHOP_TIME_ZONE: z
    .string()
    .default("UTC")
    .refine(isTimeZone, "must be an IANA time zone name, e.g. UTC, Europe/Berlin, Asia/Shanghai")
    .describe(
      "IANA time zone that held-until times, /orders dates and the daily report's day are shown in.",
    ),
} as const;

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: name });
    return name.length > 0;
  } catch {
    return false;
  }
}
