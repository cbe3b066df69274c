import path from "node:path";
import { readMigrations, type Database } from "@orderbot/db";

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
