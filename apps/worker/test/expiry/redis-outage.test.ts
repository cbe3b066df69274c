// Redis down: the worker still starts, says it is not ready, and pauses its leader-locked jobs
// (the `job` lock kind's policy is skip); when Redis comes back the jobs resume without a restart.
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  checkExpiry,
  countExpired,
  makeDue,
  seedReservations,
  spawnWorker,
  startRedisServer,
  type RedisServer,
  useTestDatabase,
  type WorkerProcess,
} from "@orderbot/testkit";
import { scrapeValue } from "../support/metrics.ts";
import { waitUntil } from "../support/worker.ts";

const testDb = useTestDatabase({ poolMax: 2 });
let redis: RedisServer;
let worker: WorkerProcess;

beforeAll(async () => {
  redis = await startRedisServer();
  await seedReservations(testDb.db, { orders: 300, products: 10 });
});
afterAll(async () => {
  await worker?.app.stop();
  await redis.dispose();
});

describe("a worker while Redis is down", () => {
  it("starts, reports not ready, expires nothing, and catches up once Redis is back", async () => {
    await redis.stop();
    const services = {
      databaseUrl: testDb.url,
      redisUrl: redis.url,
      namespace: "test-outage",
      apiRoot: "http://127.0.0.1:9",
      token: "123456:TEST-worker-token-abcdefghij",
    };
    worker = await spawnWorker("outage", services, {
      EXPIRE_INTERVAL_MS: "200",
      REDIS_COMMAND_TIMEOUT_MS: "200",
    });
    const base = `http://127.0.0.1:${worker.port}`;
    await makeDue(testDb.db);

    const readyz = await fetch(`${base}/readyz`);
    expect(readyz.status).toBe(503);
    expect(await readyz.json()).toMatchObject({ database: "ok", redis: "down" });
    await sleep(1500); // several ticks
    expect((await checkExpiry(testDb.db)).expired).toBe(0);
    const paused = scrapeValue(
      await (await fetch(`${base}/metrics`)).text(),
      "orderbot_job_runs_total",
      { job: "expire-reservations", outcome: "paused" },
    );
    expect(paused).toBeGreaterThan(0);

    await redis.start();
    await waitUntil(
      "all expired after Redis came back",
      async () => (await countExpired(testDb.db)) === 300,
      60_000,
      200,
    );
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    expect(await checkExpiry(testDb.db)).toMatchObject({
      releaseRows: 300,
      releasedTwice: 0,
      stockNotRestored: 0,
      ledgerMismatch: 0,
    });
  }, 120_000);
});
