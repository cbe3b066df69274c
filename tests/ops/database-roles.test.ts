// Least privilege in compose: docker/postgres/init-roles.sh run for real (psql, as the postgres
// image runs it) on a fresh database of the local PostgreSQL; the migrations applied as the owner
// role; then the app role can read and write rows and nothing else. (compose.test.ts checks that
// compose gives each process its role.)
import { existsSync, readdirSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, migrate } from "@orderbot/db";
import { PROJECT_ROOT, serviceUrls, withDatabase } from "@orderbot/testkit";
import { DOCKER_DIR, run } from "./support/tools.ts";

const SUFFIX = `${process.pid}_${Date.now() % 100_000}`;
const DB = `orderbot_ops_roles_${SUFFIX}`;
const OWNER = `ops_owner_${SUFFIX}`;
const APP = `ops_app_${SUFFIX}`;
const BACKUP = `ops_backup_${SUFFIX}`;
const OWNER_PASSWORD = "owner-password-0123456789";
const APP_PASSWORD = "app-password-0123456789";
const BACKUP_PASSWORD = "backup-password-0123456789";

/** Runs `fn` with a connection of the local server's superuser, to its `postgres` database. */
async function asAdmin<T>(fn: (db: ReturnType<typeof createDatabase>) => Promise<T>): Promise<T> {
  const db = createDatabase({
    url: withDatabase(serviceUrls().databaseUrl, "postgres"),
    poolMax: 1,
  });
  try {
    return await fn(db);
  } finally {
    await db.$disconnect();
  }
}

/** The local server's URL for `role` on the test database. */
function urlAs(role: string, password: string): string {
  const url = new URL(withDatabase(serviceUrls().databaseUrl, DB));
  url.username = role;
  url.password = password;
  return url.toString();
}

/** libpq's variables for `role` on the local server. */
function libpq(role: string, password: string): Record<string, string> {
  const server = new URL(serviceUrls().databaseUrl);
  return {
    PGHOST: server.hostname,
    PGPORT: server.port || "5432",
    PGUSER: role,
    PGPASSWORD: password,
  };
}

/** psql of the installed PostgreSQL (found by glob: the version differs between machines). */
function psqlDir(): string {
  const root = "/usr/lib/postgresql";
  for (const version of existsSync(root) ? readdirSync(root).sort().reverse() : []) {
    if (existsSync(path.join(root, version, "bin/psql"))) return path.join(root, version, "bin");
  }
  throw new Error("psql not found under /usr/lib/postgresql/*/bin");
}

async function query(url: string, sql: string): Promise<{ ok: boolean; error?: string }> {
  const db = createDatabase({ url, poolMax: 1 });
  try {
    await db.$executeRawUnsafe(sql);
    return { ok: true };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  } finally {
    await db.$disconnect();
  }
}

beforeAll(async () => {
  await asAdmin((db) => db.$executeRawUnsafe(`CREATE DATABASE "${DB}"`));
  const server = new URL(serviceUrls().databaseUrl);
  const result = await run(path.join(DOCKER_DIR, "postgres/init-roles.sh"), [], {
    env: {
      PATH: `${psqlDir()}:${process.env.PATH}`,
      PGHOST: server.hostname,
      PGPORT: server.port || "5432",
      PGPASSWORD: decodeURIComponent(server.password),
      POSTGRES_USER: decodeURIComponent(server.username) || "postgres",
      POSTGRES_DB: DB,
      POSTGRES_OWNER_PASSWORD: OWNER_PASSWORD,
      POSTGRES_APP_PASSWORD: APP_PASSWORD,
      POSTGRES_BACKUP_PASSWORD: BACKUP_PASSWORD,
      ORDERBOT_OWNER_ROLE: OWNER,
      ORDERBOT_APP_ROLE: APP,
      ORDERBOT_BACKUP_ROLE: BACKUP,
    },
  });
  expect(result.code, result.stdout + result.stderr).toBe(0);
});

afterAll(async () => {
  await asAdmin(async (db) => {
    await db.$executeRawUnsafe(`DROP DATABASE IF EXISTS "${DB}" WITH (FORCE)`);
    await db.$executeRawUnsafe(`DROP ROLE IF EXISTS "${APP}"`);
    await db.$executeRawUnsafe(`DROP ROLE IF EXISTS "${BACKUP}"`);
    await db.$executeRawUnsafe(`DROP ROLE IF EXISTS "${OWNER}"`);
  });
});

describe("PostgreSQL roles (docker/postgres/init-roles.sh)", () => {
  it("the owner role applies every migration, without being a superuser", async () => {
    const result = await migrate({
      url: urlAs(OWNER, OWNER_PASSWORD),
      dir: path.join(PROJECT_ROOT, "prisma/migrations"),
    });
    expect(result.applied.length).toBeGreaterThan(0);
    const rows = await asAdmin((db) =>
      db.$queryRawUnsafe<{ privileged: boolean }[]>(
        "SELECT rolsuper OR rolcreatedb OR rolcreaterole AS privileged FROM pg_roles WHERE rolname IN ($1, $2)",
        OWNER,
        APP,
      ),
    );
    expect(rows.map((r) => r.privileged)).toEqual([false, false]);
  });

  it("after postgres/app-grants.sql, the app role deletes no ledger row and writes no migration", async () => {
    const grants = await run(
      path.join(psqlDir(), "psql"),
      ["--no-psqlrc", "-v", "ON_ERROR_STOP=1", "-v", `app=${APP}`, "-f", "postgres/app-grants.sql"],
      { env: { PATH: process.env.PATH, PGDATABASE: DB, ...libpq(OWNER, OWNER_PASSWORD) } },
    );
    expect(grants.code, grants.stderr).toBe(0);
    const app = urlAs(APP, APP_PASSWORD);
    for (const sql of [
      `DELETE FROM "stock_movements"`,
      `DELETE FROM "payments"`,
      `DELETE FROM "star_transactions"`,
      `DELETE FROM "order_timeline"`,
      `UPDATE "_prisma_migrations" SET "logs" = 'x'`,
      `DELETE FROM "_prisma_migrations"`,
    ]) {
      const outcome = await query(app, sql);
      expect(outcome.ok, sql).toBe(false);
      expect(outcome.error, sql).toMatch(/permission denied/i);
    }
    // What the app does do on them still works.
    expect(await query(app, `UPDATE "payments" SET "refund_attempts" = 0 WHERE false`)).toEqual({
      ok: true,
    });
    expect(await query(app, `SELECT count(*) FROM "stock_movements"`)).toEqual({ ok: true });
  });

  it("the app role reads and writes rows of the migrated tables", async () => {
    const app = urlAs(APP, APP_PASSWORD);
    for (const sql of [
      `INSERT INTO "processed_updates" ("bot_id", "update_id") VALUES (1, 1)`,
      `SELECT count(*) FROM "processed_updates"`,
      `DELETE FROM "processed_updates" WHERE "update_id" = 1`,
      `SELECT count(*) FROM "_prisma_migrations"`,
    ])
      expect(await query(app, sql), sql).toEqual({ ok: true });
  });

  it("the app role can change no schema, and has no superuser power such as COPY ... PROGRAM", async () => {
    const app = urlAs(APP, APP_PASSWORD);
    for (const sql of [
      `CREATE TABLE "intruder" (id int)`,
      `DROP TABLE "processed_updates"`,
      `ALTER TABLE "processed_updates" ADD COLUMN "x" int`,
      `TRUNCATE "processed_updates"`,
      `COPY (SELECT 1) TO PROGRAM 'true'`,
      `CREATE ROLE "intruder"`,
    ]) {
      const outcome = await query(app, sql);
      expect(outcome.ok, sql).toBe(false);
      expect(outcome.error, sql).toMatch(/permission denied|must be (the )?owner|superuser/i);
    }
  });

  it("the backup role reads every table and writes none", async () => {
    const backup = urlAs(BACKUP, BACKUP_PASSWORD);
    expect(await query(backup, `SELECT count(*) FROM "payments"`)).toEqual({ ok: true });
    expect(await query(backup, `SELECT count(*) FROM "_prisma_migrations"`)).toEqual({ ok: true });
    for (const sql of [
      `INSERT INTO "processed_updates" ("bot_id", "update_id") VALUES (1, 2)`,
      `DELETE FROM "payments"`,
      `CREATE TABLE "intruder" (id int)`,
    ]) {
      const outcome = await query(backup, sql);
      expect(outcome.ok, sql).toBe(false);
      expect(outcome.error, sql).toMatch(/permission denied/i);
    }
  });

  it("the superuser may not log in over the network (docker/postgres/no-remote-superuser.sh)", async () => {
    const pgdata = await mkdtemp(path.join(os.tmpdir(), "orderbot-hba-"));
    const image = "local all all trust\nhost all all all scram-sha-256\n";
    await writeFile(path.join(pgdata, "pg_hba.conf"), image);
    const result = await run(path.join(DOCKER_DIR, "postgres/no-remote-superuser.sh"), [], {
      env: { PATH: process.env.PATH, PGDATA: pgdata, POSTGRES_USER: "postgres" },
    });
    expect(result.code, result.stderr).toBe(0);
    // The first matching line wins: the reject comes before the image's password line.
    expect(await readFile(path.join(pgdata, "pg_hba.conf"), "utf8")).toBe(
      `host all postgres all reject\n${image}`,
    );
    await rm(pgdata, { recursive: true, force: true });
  });
});
