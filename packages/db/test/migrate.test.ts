import { createHash } from "node:crypto";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { migrate, MigrationError, PRISMA_MIGRATE_LOCK_ID } from "@orderbot/db";
import { PROJECT_ROOT } from "@orderbot/testkit";
import { useEmptyDatabases } from "./support/empty-databases.ts";

// These tests need an empty database (not the migrated template), and a copy of the migrations
// they can edit.
const emptyDatabase = useEmptyDatabases("mig");
let dir: string;

async function rowsOf(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT * FROM "_prisma_migrations" ORDER BY migration_name`,
    );
    return rows;
  } finally {
    await client.end();
  }
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "orderbot-migrations-"));
  await cp(path.join(PROJECT_ROOT, "prisma/migrations"), dir, { recursive: true });
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe("migration runner", () => {
  it("applies every migration to an empty database, and a second run is a no-op", async () => {
    const url = await emptyDatabase();
    const first = await migrate({ url, dir });
    expect(first.applied.length).toBeGreaterThan(0);
    expect(first.alreadyApplied).toEqual([]);

    const second = await migrate({ url, dir });
    expect(second.applied).toEqual([]);
    expect(second.alreadyApplied).toEqual(first.applied);
    expect(await rowsOf(url)).toHaveLength(first.applied.length);
  });

  it("writes rows in Prisma's format: uuid id, sha256 checksum, finished_at, applied_steps_count", async () => {
    const url = await emptyDatabase();
    const { applied } = await migrate({ url, dir });
    const rows = await rowsOf(url);
    for (const [i, row] of rows.entries()) {
      const sql = await readFile(path.join(dir, applied[i]!, "migration.sql"));
      expect(row.migration_name).toBe(applied[i]);
      expect(row.id).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
      expect(row.checksum).toBe(createHash("sha256").update(sql).digest("hex"));
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.rolled_back_at).toBeNull();
      expect(row.applied_steps_count).toBe(1);
      expect(row.started_at.getTime()).toBeLessThanOrEqual(row.finished_at.getTime());
    }
  });

  it("refuses a migration edited after it was applied, naming it", async () => {
    const url = await emptyDatabase();
    const { applied } = await migrate({ url, dir });
    const name = applied[0]!;
    const file = path.join(dir, name, "migration.sql");
    await writeFile(file, `${await readFile(file, "utf8")}\n-- edited\n`);

    const error = await migrate({ url, dir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MigrationError);
    expect((error as MigrationError).migration).toBe(name);
    expect((error as Error).message).toContain(
      `migration ${name} was modified after it was applied`,
    );
  });

  it("rolls a failing migration back entirely and reports it", async () => {
    const url = await emptyDatabase();
    await migrate({ url, dir });
    const bad = path.join(dir, "29991231000000_bad");
    await cp(path.join(dir, (await migrate({ url, dir })).alreadyApplied[0]!), bad, {
      recursive: true,
    });
    await writeFile(
      path.join(bad, "migration.sql"),
      `CREATE TABLE "half_done" (id int);\nSELECT no_such_function();\n`,
    );

    await expect(migrate({ url, dir })).rejects.toThrow(
      /migration 29991231000000_bad failed and was rolled back/,
    );
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query(`SELECT to_regclass('half_done') AS t`);
    await client.end();
    expect(rows[0].t).toBeNull();
    expect((await rowsOf(url)).map((r) => r.migration_name)).not.toContain("29991231000000_bad");
  });

  it("applies each migration exactly once when several runners start at once", async () => {
    const url = await emptyDatabase();
    const results = await Promise.all(Array.from({ length: 4 }, () => migrate({ url, dir })));
    const appliedCounts = results.map((r) => r.applied.length);
    const total = appliedCounts.reduce((a, b) => a + b, 0);
    const migrations = (await rowsOf(url)).length;
    expect(total).toBe(migrations);
    expect(appliedCounts.filter((n) => n > 0)).toHaveLength(1);
  });

  it("waits for Prisma's advisory lock while another migrator holds it", async () => {
    const url = await emptyDatabase();
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    await holder.query("SELECT pg_advisory_lock($1)", [PRISMA_MIGRATE_LOCK_ID]);
    let finished = false;
    const running = migrate({ url, dir }).then((r) => {
      finished = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(finished).toBe(false);
    await holder.query("SELECT pg_advisory_unlock($1)", [PRISMA_MIGRATE_LOCK_ID]);
    await holder.end();
    expect((await running).applied.length).toBeGreaterThan(0);
  });
});
