import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";

/** The advisory lock `prisma migrate` takes, so a runner and Prisma never migrate at once. */
export const PRISMA_MIGRATE_LOCK_ID = 72707369;

/** Prisma's own table, created the way Prisma creates it. */
const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id"                  VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum"            VARCHAR(64) NOT NULL,
  "finished_at"         TIMESTAMPTZ,
  "migration_name"      VARCHAR(255) NOT NULL,
  "logs"                TEXT,
  "rolled_back_at"      TIMESTAMPTZ,
  "started_at"          TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

export interface Migration {
  name: string;
  sql: string;
  /** Lowercase hex SHA-256 of migration.sql, as Prisma computes it. */
  checksum: string;
}

export interface MigrateResult {
  applied: string[];
  alreadyApplied: string[];
}

/** A migration that cannot be applied safely: edited after it ran, failed earlier, or failing now. */
export class MigrationError extends Error {
  override name = "MigrationError";
  constructor(
    message: string,
    readonly migration: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export async function readMigrations(dir: string): Promise<Migration[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    }),
  );
}

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

/**
 * Applies pending migrations from `dir` to the database at `url`, compatibly with Prisma's
 * `_prisma_migrations` table, so `prisma migrate deploy` and this runner agree on what ran.
 *
 * - Holds Prisma's advisory lock for the whole run: concurrent runners apply each migration once.
 * - Applies each migration and records it in one transaction: a failure leaves no trace to clean.
 * - Refuses a migration whose file changed after it was applied, and one Prisma recorded as failed.
 *
 * @example
 * const { applied } = await migrate({ url: process.env.DATABASE_URL!, dir: "prisma/migrations" });
 */
export async function migrate(options: {
  url: string;
  dir: string;
  log?: (line: string) => void;
}): Promise<MigrateResult> {
  const log = options.log ?? (() => {});
  const migrations = await readMigrations(options.dir);
  const client = new pg.Client({ connectionString: options.url });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [PRISMA_MIGRATE_LOCK_ID]);
    try {
      await client.query(CREATE_MIGRATIONS_TABLE);
      const { rows } = await client.query<AppliedRow>(
        `SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"`,
      );
      const result: MigrateResult = { applied: [], alreadyApplied: [] };
      for (const migration of migrations) {
        const records = rows.filter(
          (r) => r.migration_name === migration.name && r.rolled_back_at === null,
        );
        const done = records.find((r) => r.finished_at !== null);
        if (done) {
          if (done.checksum !== migration.checksum) {
            throw new MigrationError(
              `migration ${migration.name} was modified after it was applied (checksum ${done.checksum.slice(0, 12)}… in the database, ${migration.checksum.slice(0, 12)}… on disk); add a new migration instead of editing it`,
              migration.name,
            );
          }
          result.alreadyApplied.push(migration.name);
          continue;
        }
        if (records.length > 0) {
          throw new MigrationError(
            `migration ${migration.name} failed earlier and is recorded as unfinished; fix the database, then mark it rolled back (prisma migrate resolve --rolled-back ${migration.name})`,
            migration.name,
          );
        }
        await applyOne(client, migration);
        result.applied.push(migration.name);
        log(`applied ${migration.name}`);
      }
      return result;
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [PRISMA_MIGRATE_LOCK_ID]);
    }
  } finally {
    await client.end();
  }
}

async function applyOne(client: pg.Client, migration: Migration): Promise<void> {
  await client.query("BEGIN");
  try {
    await client.query(migration.sql);
    await client.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
       VALUES ($1, $2, $3, now(), now(), 1)`,
      [randomUUID(), migration.checksum, migration.name],
    );
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK");
    const reason = error instanceof Error ? error.message : String(error);
    throw new MigrationError(
      `migration ${migration.name} failed and was rolled back: ${reason}`,
      migration.name,
      {
        cause: error,
      },
    );
  }
}
