export { PROJECT_ROOT, serviceUrls, withDatabase, type ServiceUrls } from "./services/env.ts";
export { createTestDatabase, prepareTemplateDatabase, type TestDatabase } from "./services/database.ts";
export { createTestRedis, startRedisServer, freePort, type TestRedis, type RedisServer } from "./services/redis.ts";
export { checkInvariants, formatInvariants, type InvariantResult, type InvariantInputs } from "./harness/invariants.ts";
export { spawnApp, type AppProcess, type SpawnAppOptions } from "./harness/processes.ts";
export { startRoundRobinProxy, type RoundRobinProxy } from "./harness/proxy.ts";
export * from "./telegram/index.ts";
