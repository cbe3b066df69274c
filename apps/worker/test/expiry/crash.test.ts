// Acceptance: kill -9 a worker mid-batch and start another: it finishes the work, and nothing is
// released twice. And the graceful path: SIGTERM lets the current batch commit and frees the lock.
import { describe, expect, it } from "vitest";
import type { Database } from "@orderbot/db";
import {
  checkExpiry,
  countExpired,
  makeDue,
  releasesBy,
  spawnWorker,
  withAppName,
} from "@orderbot/testkit";
import { allExpired, releasedOnce, useMassExpiry } from "../support/mass-expiry.ts";
import { waitUntil } from "../support/worker.ts";

const ORDERS = 20_000;
const env = { EXPIRE_INTERVAL_MS: "200", EXPIRE_BATCH_SIZE: "200", JOB_LOCK_TTL_MS: "2000" };

const { running, scenario: fixture } = useMassExpiry({ orders: ORDERS, products: 200 });

/** Whether the process with this application_name is inside a transaction right now. */
async function inTransaction(db: Database, app: string): Promise<boolean> {
  const rows = await db.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM pg_stat_activity
     WHERE application_name = ${app} AND xact_start IS NOT NULL AND state IN ('active', 'idle in transaction')`;
  return (rows[0]?.n ?? 0) > 0;
}

type Scenario = Awaited<ReturnType<typeof fixture>>;

/** A worker process named `app` (its database connections too), stopped after the test. */
async function start({ url, services }: Scenario, app: string) {
  const worker = await spawnWorker(app, { ...services, databaseUrl: withAppName(url, app) }, env);
  running.push(worker);
  return worker;
}

/**
 * Starts worker `app`, makes every order due, and returns once the worker is inside a batch
 * transaction with earlier batches committed.
 */
async function inBatch(scenario: Scenario, app: string) {
  const worker = await start(scenario, app);
  await makeDue(scenario.db);
  await waitUntil(
    `${app} inside a batch, with earlier batches committed`,
    async () => (await countExpired(scenario.db)) > 0 && (await inTransaction(scenario.db, app)),
    60_000,
    5,
  );
  return worker;
}

describe("a worker that dies mid-batch", () => {
  it("is killed -9 inside a batch transaction; a new worker finishes the work and releases nothing twice", async () => {
    const scenario = await fixture();
    const { db } = scenario;
    // Kill it while it holds a batch open (some batches already committed), as a crash would land.
    const first = await inBatch(scenario, "crash-1");
    await first.app.kill();
    const atCrash = await checkExpiry(db);
    expect(atCrash.expired).toBeGreaterThan(0);
    expect(atCrash.expired).toBeLessThan(ORDERS);
    // The crashed batch rolled back whole: what is committed is consistent, stock included.
    await waitUntil(
      "the killed worker's connections gone",
      async () => !(await inTransaction(db, "crash-1")),
      10_000,
    );
    expect((await checkExpiry(db)).releasedTwice).toBe(0);
    expect((await checkExpiry(db)).ledgerMismatch).toBe(0);

    await start(scenario, "crash-2");
    expect(await allExpired(db, ORDERS)).toMatchObject(releasedOnce(ORDERS));
    const by = await releasesBy(db);
    expect(by["crash-1"]).toBe(atCrash.expired);
    expect(by["crash-2"]).toBe(ORDERS - atCrash.expired);
  }, 240_000);

  it("stops gracefully on SIGTERM: the batch under way commits, the job lock is released, exit code 0", async () => {
    const scenario = await fixture();
    const { db, services, t } = scenario;
    const worker = await inBatch(scenario, "graceful");
    expect(await worker.app.stop()).toBe(0);

    const check = await checkExpiry(db);
    expect(check.expired).toBeGreaterThan(0);
    expect(check.expired).toBeLessThan(ORDERS);
    expect(check.expired % 200).toBe(0); // whole batches only: the one under way finished
    expect(check).toMatchObject({
      releaseRows: check.expired,
      releasedTwice: 0,
      notReleased: 0,
      ledgerMismatch: 0,
    });
    const lockKeys = await t.redis.keys(`{${services.namespace}:lock:job:*`);
    expect(lockKeys.filter((k) => !k.endsWith(":fence") && !k.endsWith(":queue"))).toEqual([]);
    expect(worker.app.output.some((line) => line.includes("worker stopped"))).toBe(true);
  }, 240_000);
});
