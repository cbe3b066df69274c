import path from "node:path";
import type { Api } from "grammy";
import { readMigrations, type Database } from "@orderbot/db";
import type { Logger } from "@orderbot/platform";
import { loggableError } from "./log-safety.ts";

export const MIGRATIONS_DIR = path.resolve(import.meta.dirname, "../../../prisma/migrations");

/** The database is behind the code: the process must not start (run `npm run db:migrate`). */
export class PendingMigrationsError extends Error {
  override name = "PendingMigrationsError";
  constructor(readonly pending: string[]) {
    super(
      `the database lacks ${pending.length} migration(s): ${pending.join(", ")}; run 'npm run db:migrate'`,
    );
  }
}

/** Checks that every migration in prisma/migrations has been applied to this database. */
export async function checkMigrations(db: Database, dir = MIGRATIONS_DIR): Promise<void> {
  const expected = await readMigrations(dir);
  const applied = await db.$queryRaw<{ migration_name: string }[]>`
    SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;
  const done = new Set(applied.map((row) => row.migration_name));
  const pending = expected.map((m) => m.name).filter((name) => !done.has(name));
  if (pending.length > 0) throw new PendingMigrationsError(pending);
}

/** Polling would take the updates away from a webhook that nobody chose to replace. */
export class WebhookInUseError extends Error {
  override name = "WebhookInUseError";
  constructor() {
    super(
      "a webhook is set for this bot and BOT_MODE=polling is only the default: polling would delete it; " +
        "set BOT_MODE=webhook, or BOT_MODE=polling explicitly to take over",
    );
  }
}

/**
 * Polling starts with deleteWebhook (getUpdates is refused while a webhook is set), which takes
 * the updates away from a production webhook. Done only when BOT_MODE=polling was chosen, or when
 * no webhook is set. The URL is not put in the error: it may carry a path secret.
 */
export async function assertPollingMayTakeOver(
  api: Pick<Api, "getWebhookInfo">,
  chosen: boolean,
): Promise<void> {
  if (chosen) return;
  const info = await api.getWebhookInfo();
  if (info.url !== "") throw new WebhookInUseError();
}

/** The oldest Redis the bot runs on: the rate limiter's `PEXPIRE key ms NX` came with 7.0. */
export const MIN_REDIS_MAJOR = 7;

/** Redis is too old: on 6 the limiter's transaction always fails, so limiting would always be off. */
export class RedisTooOldError extends Error {
  override name = "RedisTooOldError";
  constructor(readonly version: string) {
    super(
      `Redis ${version} is too old: the bot needs Redis ${MIN_REDIS_MAJOR}.0 or later (the rate limiter uses PEXPIRE ... NX)`,
    );
  }
}

export type RedisVersionCheck =
  | { outcome: "ok"; version: string }
  | { outcome: "too-old"; version: string }
  | { outcome: "unknown" };

/** Reads `redis_version` from an `INFO server` reply and decides whether it is new enough. */
export function checkRedisVersion(info: string): RedisVersionCheck {
  const version = /^redis_version:([^\r\n]+)/m.exec(info)?.[1]?.trim();
  const major = version === undefined ? NaN : Number.parseInt(version, 10);
  if (version === undefined || !Number.isFinite(major)) return { outcome: "unknown" };
  return major >= MIN_REDIS_MAJOR ? { outcome: "ok", version } : { outcome: "too-old", version };
}

/**
 * Refuses to start on a Redis older than 7, rather than falling back to a transaction without NX:
 * that fallback is the separate PEXPIRE that could leave a count without expiry (a user limited
 * for good), and one code path is one to test. With Cluster or Sentinel it asks the node the
 * client is connected to. An unreachable Redis (or a reply without a version) only warns: Redis
 * down at start costs availability, not correctness.
 */
export async function assertRedisVersion(
  redis: { info(section: "server"): Promise<string> },
  logger: Logger,
): Promise<void> {
  let check: RedisVersionCheck;
  try {
    check = checkRedisVersion(await redis.info("server"));
  } catch (error) {
    logger.warn(
      { err: loggableError(error) },
      "could not check the Redis version; starting anyway",
    );
    return;
  }
  if (check.outcome === "too-old") throw new RedisTooOldError(check.version);
  if (check.outcome === "unknown") logger.warn("Redis did not report its version; starting anyway");
}
