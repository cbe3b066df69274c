// Acceptance: with two worker processes each job body runs on one worker at a time (the runs'
// records show no overlap); a leader SIGSTOPped past its TTL is replaced; when it resumes, its
// signal has aborted and it writes nothing more (asserted from the database).
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@orderbot/db";
import {
  checkExpiry,
  countExpired,
  makeDue,
  releasesBy,
  spawnWorker,
  withAppName,
  type WorkerProcess,
} from "@orderbot/testkit";
import { journal, type JournalRun } from "../support/journal.ts";
import { useMassExpiry } from "../support/mass-expiry.ts";
import { scrapeValue } from "../support/metrics.ts";
import { waitUntil } from "../support/worker.ts";

const ORDERS = 10_000;
const TTL_MS = 2000;
const JOB = "expire-reservations";

const fixture = useMassExpiry({ orders: ORDERS, products: 100 });
let db: Database;
const workers: Record<string, WorkerProcess> = {};

beforeAll(async () => {
  const { testDb, services } = await fixture.scenario();
  db = testDb.db;
  const env = {
    LOG_LEVEL: "debug",
    EXPIRE_MODE: "leader",
    EXPIRE_INTERVAL_MS: "100",
    EXPIRE_BATCH_SIZE: "50",
    JOB_LOCK_TTL_MS: String(TTL_MS),
    DATABASE_IDLE_TX_TIMEOUT_MS: "3000",
  };
  for (const name of ["lead-a", "lead-b"]) {
    workers[name] = await spawnWorker(
      name,
      { ...services, databaseUrl: withAppName(testDb.url, name) },
      env,
    );
  }
}, 120_000);
afterAll(async () => {
  await Promise.all(Object.values(workers).map((w) => w.app.stop()));
});

const runsOf = (names = Object.keys(workers)): JournalRun[] =>
  names
    .flatMap((name) => journal(name, workers[name]!.app.output, JOB))
    .sort((x, y) => x.start - y.start);

describe("job leadership across two worker processes", () => {
  it("runs each job body on one worker at a time: no two runs overlap, fences only grow", async () => {
    await sleep(3000); // nothing is due: many short runs, the lead passing back and forth
    const runs = runsOf().filter((r) => r.end !== null);
    expect(runs.length).toBeGreaterThan(10);
    expect(new Set(runs.map((r) => r.worker)).size).toBe(2);
    for (let i = 1; i < runs.length; i++) {
      expect(runs[i]!.start, `run ${i} starts before run ${i - 1} ended`).toBeGreaterThanOrEqual(
        runs[i - 1]!.end!,
      );
      expect(runs[i]!.fence!).toBeGreaterThan(runs[i - 1]!.fence!);
    }
  });

  it("replaces a leader paused past its TTL; the resumed one has lost its lease and writes nothing more", async () => {
    expect(await makeDue(db)).toBe(ORDERS);
    await waitUntil("expiry under way", async () => (await countExpired(db)) >= 200, 60_000, 20);
    const writers = await releasesBy(db);
    const leader = Object.keys(writers).find((app) => app in workers)!;
    const other = leader === "lead-a" ? "lead-b" : "lead-a";
    expect(Object.keys(writers)).toEqual([leader]);

    workers[leader]!.app.pause();
    const pausedAt = Date.now();
    const leaderRun = runsOf([leader]).at(-1)!;
    expect(leaderRun.end).toBeNull(); // stopped in the middle of its run
    expect((await checkExpiry(db)).expired).toBeLessThan(ORDERS);

    // The other one takes over once the paused leader's lease has run out, and finishes the work.
    await waitUntil(
      "all expired by the new leader",
      async () => (await countExpired(db)) === ORDERS,
      120_000,
      250,
    );
    const takeover = runsOf([other]).find((r) => r.start > pausedAt && r.fence! > leaderRun.fence!);
    expect(takeover).toBeDefined();
    // Not before the paused leader's lease ran out: it was last renewed at most a third of the TTL
    // before the pause (the watchdog renews every ttl/3), so its lease outlived the pause by at
    // least two thirds of the TTL.
    expect(takeover!.start - pausedAt).toBeGreaterThanOrEqual(TTL_MS * 0.6);
    const whileStopped = await releasesBy(db);

    workers[leader]!.app.resume();
    await waitUntil(
      "the resumed leader's run to end",
      async () => runsOf([leader]).find((r) => r.start === leaderRun.start)?.end !== null,
      30_000,
    );
    await sleep(1500);

    // Its signal had aborted: the run ended as lease-lost, and it counted it.
    expect(runsOf([leader]).find((r) => r.start === leaderRun.start)!.outcome).toBe("lease-lost");
    const metrics = await (await fetch(workers[leader]!.metricsUrl)).text();
    expect(scrapeValue(metrics, "orderbot_job_lease_lost_total", { job: JOB })).toBe(1);
    // And it wrote nothing more: the database holds exactly what it held while the leader was stopped.
    expect(await releasesBy(db)).toEqual(whileStopped);
    expect(await checkExpiry(db)).toMatchObject({
      expired: ORDERS,
      releaseRows: ORDERS,
      releasedTwice: 0,
      stockNotRestored: 0,
      ledgerMismatch: 0,
    });
    expect(whileStopped[leader]! + whileStopped[other]!).toBe(ORDERS);
  }, 240_000);
});
