export {
  createLogger,
  silentLogger,
  maskSecretsInText,
  REDACTED_KEYS,
  type Logger,
  type LoggerConfig,
} from "./logger.ts";
export { scrubText } from "./scrub.ts";
export { createMetricsRegistry, Registry } from "./metrics.ts";
export {
  createRedis,
  createRedisFromConfig,
  watchRedis,
  redisTopology,
  redisTopologyShape,
  describeRedisTopology,
  replicationFromConfig,
  waitForRedis,
  Redis,
  Cluster,
  type RedisClient,
  type RedisConfig,
  type RedisTopology,
  type RedisTopologyConfig,
  type HostPort,
  type CreateRedisOptions,
} from "./redis.ts";
export {
  connectRedis,
  type ConnectRedisOptions,
  type RedisConnections,
  type RedisConnectionsConfig,
} from "./connections.ts";
export { maskId } from "./mask.ts";
export { ConfigError } from "./errors.ts";
export {
  DEVELOPMENT_ONLY_SETTINGS,
  EXAMPLE_LOCK_HASH_KEY,
  loadEnvFiles,
  parseConfig,
  type ProductionRules,
} from "./env.ts";
export { sharedConfigShape, csv, telegramIds, port } from "./config.ts";
export { configSchemaDoc, type ConfigSchemaDoc, type SettingSchema } from "./config-reference.ts";
export { lockNamespaceFor, withLockNamespace } from "./lock-namespace.ts";
export { LOCK_KIND_METRICS, registerLockKindMetrics } from "./lock-kind-metrics.ts";
export { secretMatches } from "./secret.ts";
export { cutText } from "./text.ts";
export { withDeadline, CallDeadlineError } from "./call-deadline.ts";
