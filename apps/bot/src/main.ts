// The bot process: configuration, connections, the app, signals. Everything else is importable
// (see app.ts); this file only wires it to the environment and shuts it down gracefully.
import closeWithGrace from "close-with-grace";
import {
  ConfigError,
  createLogger,
  createMetricsRegistry,
  scrubText,
  waitForRedis,
  type Logger,
} from "@orderbot/platform";
import { createRuntime } from "@orderbot/runtime";
import { createBotApp } from "./app.ts";
import { loadBotConfig, type BotConfig } from "./config.ts";
import { loggableError } from "./log-safety.ts";
import { checkMigrations } from "./startup.ts";
import { updateIdMixin, updateRequestId } from "./updates/scope.ts";

/** Graceful shutdown must finish within this; a webhook request waits for its update, so keep it above the slowest one. */
const SHUTDOWN_GRACE_MS = 25_000;

function loadConfigOrExit(): BotConfig {
  try {
    return loadBotConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    for (const problem of error.problems)
      process.stderr.write(`bot: invalid configuration: ${problem}\n`);
    process.exit(1);
  }
}

/** Values scrubbed from every line the process writes. */
const secretsOf = (config: BotConfig) => [
  config.BOT_TOKEN,
  config.WEBHOOK_SECRET ?? "",
  config.METRICS_TOKEN ?? "",
  config.PROVIDER_TOKEN,
  config.LOCK_HASH_KEY,
  config.REDIS_SENTINEL_PASSWORD,
];

function createProcessLogger(config: BotConfig): Logger {
  return createLogger({
    level: config.LOG_LEVEL,
    name: "bot",
    pretty: config.NODE_ENV === "development",
    mixin: updateIdMixin,
    secrets: secretsOf(config),
  });
}

async function main(config: BotConfig): Promise<void> {
  const logger = createProcessLogger(config);
  const registry = createMetricsRegistry({ defaultMetrics: true });

  const runtime = createRuntime(config, {
    name: "bot",
    logger,
    registry,
    requestId: updateRequestId,
  });
  const app = createBotApp({ config, logger, registry, ...runtime });

  closeWithGrace(
    {
      delay: SHUTDOWN_GRACE_MS,
      logger: {
        error: (message: unknown) => logger.error({ err: loggableError(message) }, "shutdown"),
      },
    },
    async ({ signal, err }) => {
      if (err) logger.error({ err: loggableError(err) }, "stopping after an unexpected error");
      else logger.info({ signal }, "stopping: finishing the updates in flight");
      await app.close();
      await runtime.close();
      logger.info("stopped");
    },
  );

  await checkMigrations(runtime.db);
  // Redis down at start costs availability, not correctness: each lock kind's outage policy applies.
  await waitForRedis(runtime.redis).catch(() =>
    logger.warn("Redis is not reachable yet; starting anyway"),
  );
  await app.start();
}

const config = loadConfigOrExit();
main(config).catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  // Written outside the logger, so scrubbed here the same way.
  process.stderr.write(`bot: failed to start: ${scrubText(message, secretsOf(config))}\n`);
  process.exit(1);
});
