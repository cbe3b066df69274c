import { createHash, randomBytes } from "node:crypto";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { createDatabase, migrate, readMigrations, type Database } from "@orderbot/db";
import { PROJECT_ROOT, serviceUrls, withDatabase } from "./env.ts";
import { processAlive } from "./process-alive.ts";

const MIGRATIONS_DIR = path.join(PROJECT_ROOT, "prisma/migrations");

const TEST_DATABASE_PREFIX = "orderbot_test_";
const TEMPLATE_PREFIX = "orderbot_tpl_";
/** Serialises template builds between test runs that start at the same moment. */
const TEMPLATE_LOCK_ID = 0x7e57db;

async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({
    connectionString: withDatabase(serviceUrls().databaseUrl, "postgres"),
  });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** The template's name carries a hash of the migrations: an edited migration builds a new one. */
async function templateName(): Promise<string> {
  const migrations = await readMigrations(MIGRATIONS_DIR);
  const hash = createHash("sha256");
  for (const m of migrations) hash.update(`${m.name}:${m.checksum};`);
  return `${TEMPLATE_PREFIX}${hash.digest("hex").slice(0, 12)}`;
}

/**
 * Makes sure a migrated template exists, and drops the test databases of test runs that are no
 * longer alive (a run names its databases after its process id). Called once per test run, by
 * the global setup; concurrent runs on one machine leave each other alone.
 */
export async function prepareTemplateDatabase(): Promise<string> {
  const name = await templateName();
  await withAdmin(async (admin) => {
    await admin.query("SELECT pg_advisory_lock($1)", [TEMPLATE_LOCK_ID]);
    try {
      const { rows } = await admin.query<{ datname: string }>(
        "SELECT datname FROM pg_database WHERE datname LIKE $1 OR datname LIKE $2",
        [`${TEST_DATABASE_PREFIX}%`, `${TEMPLATE_PREFIX}%`],
      );
      for (const { datname } of rows) {
        if (datname === name) continue;
        const pid = Number(datname.slice(TEST_DATABASE_PREFIX.length).split("_")[0]);
        const stale =
          datname.startsWith(TEMPLATE_PREFIX) || !Number.isInteger(pid) || !processAlive(pid);
        if (stale) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
      }
      if (rows.some((r) => r.datname === name)) return;
      const building = `${name}_building`;
      await admin.query(`CREATE DATABASE "${building}"`);
      await migrate({
        url: withDatabase(serviceUrls().databaseUrl, building),
        dir: MIGRATIONS_DIR,
      });
      await admin.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
    } finally {
      await admin.query("SELECT pg_advisory_unlock($1)", [TEMPLATE_LOCK_ID]);
    }
  });
  return name;
}

export interface TestDatabase {
  name: string;
  url: string;
  /** A Prisma client on this database, created on first use and closed by drop(). */
  readonly db: Database;
  drop(): Promise<void>;
}

/**
 * A fresh, migrated database of its own for one test file, cloned from the template.
 *
 * @example
 * let testDb: TestDatabase;
 * beforeAll(async () => { testDb = await createTestDatabase(); });
 * afterAll(() => testDb.drop());
 */
export async function createTestDatabase(
  options: { poolMax?: number } = {},
): Promise<TestDatabase> {
  const reserved = reserveTestDatabase(options);
  await reserved.create();
  return reserved;
}

/**
 * A test database's name, URL and client, known before the database exists: the client connects
 * on its first query, so it can be handed out at once and the database cloned later (`create()`).
 */
export function reserveTestDatabase(
  options: { poolMax?: number } = {},
): TestDatabase & { create(): Promise<void> } {
  const run = process.env.ORDERBOT_TEST_RUN ?? String(process.pid);
  const name = `${TEST_DATABASE_PREFIX}${run}_${randomBytes(4).toString("hex")}`;
  const url = withDatabase(serviceUrls().databaseUrl, name);
  let client: Database | undefined;
  return {
    name,
    url,
    get db() {
      client ??= createDatabase({ url, poolMax: options.poolMax ?? 20, connectTimeoutMs: 10_000 });
      return client;
    },
    create: () => cloneTemplate(name),
    async drop() {
      await client?.$disconnect();
      await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

async function cloneTemplate(name: string): Promise<void> {
  const template = await templateName();
  await withAdmin(async (admin) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
        return;
      } catch (error) {
        // Two clones of one template at the same instant can collide; the next try succeeds.
        if (attempt >= 20 || !String(error).includes("being accessed by other users")) throw error;
        await sleep(50 + Math.random() * 100);
      }
    }
  });
}
