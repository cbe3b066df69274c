export { createLogger, silentLogger, REDACT_PATHS, type Logger, type LoggerConfig } from "./logger.ts";
export { createMetricsRegistry, Registry } from "./metrics.ts";
export { createRedis, waitForRedis, Redis, type RedisConfig } from "./redis.ts";
export { maskId } from "./mask.ts";
export { ConfigError } from "./errors.ts";
export { loadEnvFiles, parseConfig } from "./env.ts";
export { sharedConfigShape, csv, telegramIds, port } from "./config.ts";
