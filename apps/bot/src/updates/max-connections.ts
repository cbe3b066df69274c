// How many updates Telegram may send the webhook at once. Each one in flight may hold a PostgreSQL
// connection, so the default is what the replicas' pools can serve: more would queue for the pool,
// and Telegram's own default (40) overruns a small deployment (docs/operations.md, Set the webhook).
import type { BotConfig } from "../config.ts";

/** Telegram's range for `max_connections`. */
const TELEGRAM_MAX = 100;

export function webhookMaxConnections(
  config: Pick<BotConfig, "WEBHOOK_MAX_CONNECTIONS" | "BOT_REPLICAS" | "DATABASE_POOL_MAX">,
): number {
  return (
    config.WEBHOOK_MAX_CONNECTIONS ??
    Math.min(TELEGRAM_MAX, config.BOT_REPLICAS * config.DATABASE_POOL_MAX)
  );
}
