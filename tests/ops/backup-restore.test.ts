// Backups restore: docker/backup/pg-backup.sh (what the compose `backup` service runs) dumps a shop
// with an order in every state; docker/backup/pg-restore.sh (what scripts/restore runs) restores it
// into a new database of the same server. The shop's invariants hold on the restore, and the
// payments and the Star ledger are byte-equal to the original.
import { existsSync, readdirSync } from "node:fs";
import { mkdtemp, readFile, readdir, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type Database } from "@orderbot/db";
import {
  assertInvariants,
  createTestDatabase,
  serviceUrls,
  withDatabase,
  type TestDatabase,
} from "@orderbot/testkit";
import { buildShopInEveryState, EVERY_STATE } from "./support/shop-in-every-state.ts";
import { DOCKER_DIR, run } from "./support/tools.ts";

const MONEY_TABLES = [
  "payments",
  "star_transactions",
  "star_ledger_positions",
  "star_ledger_findings",
];
const RESTORED = `orderbot_ops_restored_${process.pid}`;

/** The installed PostgreSQL's client programs (the version differs between machines). */
function pgBin(): string {
  const root = "/usr/lib/postgresql";
  for (const version of existsSync(root) ? readdirSync(root).sort().reverse() : []) {
    if (existsSync(path.join(root, version, "bin/pg_dump"))) return path.join(root, version, "bin");
  }
  throw new Error("pg_dump not found under /usr/lib/postgresql/*/bin");
}

/** libpq's variables for the test's server, as compose gives them to the backup service. */
function libpqEnv(database: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const server = new URL(serviceUrls().databaseUrl);
  return {
    PATH: `${pgBin()}:${process.env.PATH}`,
    PGHOST: server.hostname,
    PGPORT: server.port || "5432",
    PGUSER: decodeURIComponent(server.username) || "postgres",
    PGPASSWORD: decodeURIComponent(server.password),
    PGDATABASE: database,
    ...extra,
  };
}

/** Every row of `table` as PostgreSQL prints it, in key order: equal text is equal bytes. */
async function rowsOf(db: Database, table: string): Promise<string[]> {
  const rows = await db.$queryRawUnsafe<{ row: string }[]>(
    `SELECT t::text AS row FROM "${table}" t ORDER BY 1`,
  );
  return rows.map((r) => r.row);
}

let original: TestDatabase;
let restored: Database;
let dir: string;
let dump: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "orderbot-backup-"));
  original = await createTestDatabase();
  await buildShopInEveryState(original.url);
  const backup = await run(path.join(DOCKER_DIR, "backup/pg-backup.sh"), [], {
    env: libpqEnv(original.name, { BACKUP_DIR: dir, BACKUP_METRICS_DIR: dir }),
  });
  expect(backup.code, backup.stderr).toBe(0);
  dump = path.join(
    dir,
    (await readdir(dir)).find((f) => f.endsWith(".dump"))!,
  );
  const restore = await run(path.join(DOCKER_DIR, "backup/pg-restore.sh"), [dump, RESTORED], {
    env: libpqEnv("postgres"),
  });
  expect(restore.code, restore.stderr).toBe(0);
  restored = createDatabase({
    url: withDatabase(serviceUrls().databaseUrl, RESTORED),
    poolMax: 2,
  });
}, 60_000);

afterAll(async () => {
  await restored?.$disconnect();
  await run(path.join(pgBin(), "dropdb"), ["--if-exists", "--force", RESTORED], {
    env: libpqEnv("postgres"),
  });
  await original?.drop();
  await rm(dir, { recursive: true, force: true });
});

describe("backup and restore (docker/backup)", () => {
  it("the restored shop has an order in every state, and its invariants hold", async () => {
    const states = await restored.$queryRawUnsafe<{ status: string }[]>(
      `SELECT DISTINCT status::text AS status FROM orders ORDER BY 1`,
    );
    expect(states.map((s) => s.status)).toEqual([...EVERY_STATE].sort());
    await assertInvariants(restored);
  });

  it.each(MONEY_TABLES)("%s is byte-equal to the original", async (table) => {
    const before = await rowsOf(original.db, table);
    if (table !== "star_ledger_findings") expect(before.length).toBeGreaterThan(0);
    expect(await rowsOf(restored, table)).toEqual(before);
  });

  it("the dump is readable by its owner only (it holds addresses and phone numbers)", async () => {
    expect((await stat(dump)).mode & 0o077).toBe(0);
  });

  it("the backup reports its time for the age alert", async () => {
    const metrics = await readFile(path.join(dir, "orderbot_backup.prom"), "utf8");
    const at = Number(/^orderbot_backup_last_success_timestamp_seconds (\d+)$/m.exec(metrics)?.[1]);
    expect(Math.abs(at - Date.now() / 1000)).toBeLessThan(600);
  });

  it("never restores over an existing database", async () => {
    const again = await run(path.join(DOCKER_DIR, "backup/pg-restore.sh"), [dump, RESTORED], {
      env: libpqEnv("postgres"),
    });
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain(`database ${RESTORED} exists`);
  });
});
