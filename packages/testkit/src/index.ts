export { PROJECT_ROOT, serviceUrls, withDatabase, type ServiceUrls } from "./services/env.ts";
export {
  createTestDatabase,
  prepareTemplateDatabase,
  reserveTestDatabase,
  type TestDatabase,
} from "./services/database.ts";
export { configProblems } from "./fixtures/config-problems.ts";
export { useTestDatabase } from "./fixtures/test-database.ts";
export { useTestRedis } from "./fixtures/test-redis.ts";
export { shopLockManager, type ShopLocksOptions } from "./fixtures/shop-locks.ts";
export {
  useRecordedLocks,
  type LockLogLine,
  type RecordedLocks,
} from "./fixtures/recorded-locks.ts";
export {
  createTestRedis,
  startRedisServer,
  freePort,
  type TestRedis,
  type RedisServer,
} from "./services/redis.ts";
export {
  assertInvariants,
  checkInvariants,
  formatInvariants,
  type InvariantResult,
  type InvariantInputs,
} from "./harness/invariants.ts";
export { illegalTransitions, recordTransitions } from "./harness/transitions.ts";
export { checkChargesAccounted, chargeLedgerOf, type ChargeLedger } from "./harness/charges.ts";
export { spawnApp, type AppProcess, type SpawnAppOptions } from "./harness/processes.ts";
export {
  spawnWorker,
  workerEnv,
  WORKER_HASH_KEY,
  type WorkerProcess,
  type WorkerServices,
} from "./harness/worker-process.ts";
export {
  checkExpiry,
  countExpired,
  INITIAL_STOCK,
  installReleaseAudit,
  makeDue,
  releasesBy,
  seedReservations,
  withAppName,
  type ExpiryCheck,
} from "./fixtures/mass-reservations.ts";
export { startRoundRobinProxy, type RoundRobinProxy } from "./harness/proxy.ts";
export { startPostgresCluster, type PostgresCluster } from "./harness/pg-cluster.ts";
export {
  checkoutRelease,
  previousReleaseCommit,
  type ReleaseCheckout,
} from "./harness/previous-release.ts";
export {
  startShopRun,
  type ShopRun,
  type ShopRunOptions,
  type AppInstance,
} from "./harness/shop-run.ts";
export { Operator, type FulfilCommand, type StockCommand } from "./harness/operator.ts";
export {
  runCustomer,
  type CustomerOptions,
  type CustomerResult,
  type OrderPress,
  type PlaceOutcome,
  type Intent,
  type Step,
  type ShopperProduct,
} from "./harness/customer.ts";
export {
  startFlashSale,
  type FlashSale,
  type FlashSaleOptions,
  type FlashSaleStats,
} from "./harness/flash-sale.ts";
export {
  applyPromoCode,
  checkPromoUses,
  createPromoCode,
  promoFigures,
} from "./harness/promo-shopper.ts";
export {
  digitalFigures,
  GIFT_CARD,
  loadGiftCards,
  startDigitalShoppers,
  type DigitalFigures,
} from "./harness/digital-shopper.ts";
export { checkDigitalDelivery } from "./harness/digital-invariants.ts";
export {
  checkPhysicalOrders,
  PHYSICAL_SHOP_ENV,
  physicalFigures,
  startPhysicalShoppers,
  stockPhysicalGoods,
  type PhysicalFigures,
} from "./harness/physical-shopper.ts";
export { checkEffects, pressKey, type EffectInputs } from "./harness/effects.ts";
export {
  auditRedisArgs,
  archiveAof,
  checkOrdersHadLocks,
  checkoutLockKey,
  parseAof,
  readLeases,
  type Lease,
} from "./harness/lock-audit.ts";
export { settle, type SettleOptions, type SettleResult } from "./harness/settle.ts";
export { barrier } from "./harness/barrier.ts";
export { withinOneUtcDay } from "./harness/utc-day.ts";
export {
  parseMetrics,
  scrapeAll,
  summarizeLocks,
  type Sample,
  type LockSummary,
} from "./harness/metrics.ts";
export { startProgress, type Progress, type ProgressStream } from "./harness/progress.ts";
export {
  formatMs,
  formatRate,
  formatTable,
  markdownTable,
  percentile,
  readSummary,
  recordSummary,
  Samples,
  type Cell,
  type SummaryRow,
} from "./bench/report.ts";
export {
  BENCHMARKS_MD,
  environmentLine,
  installedVersion,
  packageVersion,
  redisServerVersion,
  writeSection,
} from "./bench/docs.ts";
export { cellTime, closedLoop, interleave, STOP, type LoopOptions } from "./bench/runner.ts";
export {
  COMMON_TAIL,
  IOREDIS,
  PG,
  PRISMA,
  startCpuProfile,
  type Category,
  type CpuProfiler,
  type ProfileShare,
} from "./bench/profiler.ts";
