// The project's migrations up to one of them, copied to a folder of their own: a database migrated
// from there is the database as it was before that migration, to fill with the rows it must carry.
import { cp, mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll } from "vitest";
import { migrate } from "@orderbot/db";
import { PROJECT_ROOT } from "@orderbot/testkit";

/** Registers the clean-up; the function it returns copies the migrations before `name`. */
export function useMigrationsBefore(): (name: string) => Promise<string> {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });
  return async (name) => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "orderbot-migrations-"));
    dirs.push(dir);
    const source = path.join(PROJECT_ROOT, "prisma/migrations");
    for (const entry of await readdir(source, { withFileTypes: true })) {
      if (entry.isDirectory() && entry.name >= name) continue;
      await cp(path.join(source, entry.name), path.join(dir, entry.name), { recursive: true });
    }
    return dir;
  };
}

/**
 * Writes `seed` to the empty database at `url` migrated as far as `before` (a folder from
 * useMigrationsBefore), runs the rest of the migrations, and returns what `query` reads then: what
 * the migration made of rows the release before it wrote.
 */
export async function rowsAcrossMigration(
  url: string,
  before: string,
  seed: string,
  query: string,
): Promise<unknown[]> {
  await migrate({ url, dir: before });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(seed);
    await migrate({ url, dir: path.join(PROJECT_ROOT, "prisma/migrations") });
    return (await client.query(query)).rows;
  } finally {
    await client.end();
  }
}
