// The set-up of the expiry load tests: each scenario a database of its own seeded with thousands of
// reservations (with the release audit), worker processes stopped after each test.
import { afterAll, afterEach } from "vitest";
import type { Database } from "@orderbot/db";
import {
  checkExpiry,
  countExpired,
  createTestDatabase,
  createTestRedis,
  installReleaseAudit,
  seedReservations,
  type TestDatabase,
  type ExpiryCheck,
  type TestRedis,
  type WorkerProcess,
  type WorkerServices,
} from "@orderbot/testkit";
import { waitUntil } from "./worker.ts";

export const WORKER_TOKEN = "123456:TEST-worker-token-abcdefghij";

export interface ExpiryScenario {
  testDb: TestDatabase;
  db: Database;
  url: string;
  services: WorkerServices;
  /** The file's Redis namespace's client, to look at its keys. */
  t: TestRedis;
}

/**
 * Registers the hooks; `scenario()` seeds a new database, and the processes a test pushes to
 * `running` are stopped after it.
 */
export function useMassExpiry(seed: { orders: number; products: number }): {
  running: WorkerProcess[];
  scenario(): Promise<ExpiryScenario>;
} {
  let t: TestRedis | undefined;
  const dbs: TestDatabase[] = [];
  const running: WorkerProcess[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((w) => w.app.stop()));
  });
  afterAll(async () => {
    for (const db of dbs) await db.drop();
    await t?.cleanup();
  });
  async function scenario(): Promise<ExpiryScenario> {
    t ??= await createTestRedis();
    const testDb = await createTestDatabase({ poolMax: 4 });
    dbs.push(testDb);
    await seedReservations(testDb.db, seed);
    await installReleaseAudit(testDb.db);
    // A namespace per scenario: the job lock of one scenario never holds up the next.
    const services = {
      databaseUrl: testDb.url,
      redisUrl: t.url,
      namespace: `${t.namespace}-${dbs.length}`,
      apiRoot: "http://127.0.0.1:9",
      token: WORKER_TOKEN,
    };
    return { testDb, db: testDb.db, url: testDb.url, services, t };
  }
  return { running, scenario };
}

/** The expiry check once all `orders` reservations expired and were released once, customers told. */
export function releasedOnce(orders: number) {
  return {
    orders,
    expired: orders,
    stockNotRestored: 0,
    ledgerMismatch: 0,
    releaseRows: orders,
    releasedTwice: 0,
    notReleased: 0,
    notifications: orders,
  };
}

/** Waits (two minutes at most) until all `orders` reservations expired; the expiry check then. */
export async function allExpired(db: Database, orders: number): Promise<ExpiryCheck> {
  await waitUntil(
    "all reservations expired",
    async () => (await countExpired(db)) === orders,
    120_000,
    250,
  );
  return checkExpiry(db);
}
