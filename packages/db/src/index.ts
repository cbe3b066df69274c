export { createDatabase, type Database, type DatabaseConfig } from "./client.ts";
export {
  runTransaction,
  isRetryableTransactionError,
  sqlStateOf,
  isUniqueViolation,
  TransactionAbortedError,
  type Tx,
  type TransactionOptions,
  type IsolationLevel,
} from "./transaction.ts";
export {
  migrate,
  readMigrations,
  MigrationError,
  PRISMA_MIGRATE_LOCK_ID,
  type Migration,
  type MigrateResult,
} from "./migrate.ts";
export { createProcessedUpdates, type ProcessedUpdates } from "./processed-updates.ts";
export { createParkedUpdates, type ParkedUpdate, type ParkedUpdates } from "./parked-updates.ts";
export {
  seedCatalog,
  DEMO_CATALOG,
  DEMO_CATEGORIES,
  PHYSICAL_DEMO_CATALOG,
  type SeedCategory,
  type SeedProduct,
} from "./seed.ts";
export { Prisma } from "./generated/client.ts";
export * from "./generated/enums.ts";
export type * from "./generated/models.ts";
export { utcTimestamp } from "./sql-time.ts";
export { readCacheEpoch } from "./cache-epoch.ts";
