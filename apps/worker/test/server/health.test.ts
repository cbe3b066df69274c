import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@orderbot/db";
import {
  createTestDatabase,
  freePort,
  startRedisServer,
  type RedisServer,
  type TestDatabase,
} from "@orderbot/testkit";
import { WORKER_METRICS } from "../../src/metrics.ts";
import { scrapeValue } from "../support/metrics.ts";
import { refundOwed } from "../support/seed.ts";
import { startWorker, waitUntil, type InProcessWorker } from "../support/worker.ts";

let testDb: TestDatabase;
let db: Database;
let redis: RedisServer;
let w: InProcessWorker;
let base: string;
const TOKEN = "metrics-token-0123456789";

beforeAll(async () => {
  testDb = await createTestDatabase({ poolMax: 4 });
  db = testDb.db;
  redis = await startRedisServer(); // ours to stop
  const port = await freePort();
  const services = {
    databaseUrl: testDb.url,
    redisUrl: redis.url,
    namespace: "test-health",
    apiRoot: "http://127.0.0.1:9",
    token: "123456:TEST-worker-token-abcdefghij",
  };
  w = await startWorker(
    services,
    { WORKER_PORT: String(port), METRICS_TOKEN: TOKEN },
    { start: false },
  );
  await w.worker.start({ listen: true });
  base = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await w.close();
  await redis.dispose();
  await testDb.drop();
});

const metrics = (token = TOKEN) =>
  fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}` } });

describe("health server", () => {
  it("answers /healthz, and /readyz while PostgreSQL and Redis answer", async () => {
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ok: true, database: "ok", redis: "ok" });
  });

  it("says not ready (503) while Redis is down, and ready again when it is back", async () => {
    await redis.stop();
    const down = await fetch(`${base}/readyz`);
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({ ok: false, database: "ok", redis: "down" });
    await redis.start();
    await waitUntil(
      "ready again",
      async () => (await fetch(`${base}/readyz`)).status === 200,
      20_000,
    );
  });

  it("serves /metrics only with the bearer token", async () => {
    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    expect((await metrics("wrong-token-0123456789")).status).toBe(401);
    expect((await metrics()).status).toBe(200);
  });

  it("exports every metric the alert rules use, the backlog gauges read fresh from the database", async () => {
    const payment = await refundOwed(db, 42n);
    await db.payment.update({
      where: { id: payment.id },
      data: { createdAt: new Date(Date.now() - 300_000) },
    });
    await db.outboxMessage.createMany({
      data: [1, 2, 3].map((i) => ({
        dedupeKey: `m${i}`,
        chatId: 42n,
        method: "sendMessage",
        payload: { text: "x" },
        createdAt: new Date(Date.now() - i * 60_000),
      })),
    });

    const text = await (await metrics()).text();
    for (const name of Object.values(WORKER_METRICS))
      expect(text, name).toContain(`# TYPE ${name} `);
    for (const name of [
      "orderbot_outbox_pending",
      "orderbot_outbox_oldest_pending_age_seconds",
      "orderbot_outbox_dead_total",
      "orderbot_outbox_sent_total",
      "orderbot_refund_pending_oldest_age_seconds",
      "orderbot_orders_expired_total",
      "orderbot_job_lease_lost_total",
    ]) {
      expect(text, name).toContain(`# TYPE ${name} `);
    }
    expect(scrapeValue(text, "orderbot_outbox_pending")).toBe(3);
    expect(scrapeValue(text, "orderbot_outbox_oldest_pending_age_seconds")).toBeGreaterThanOrEqual(
      180,
    );
    expect(scrapeValue(text, "orderbot_outbox_oldest_pending_age_seconds")).toBeLessThan(240);
    expect(scrapeValue(text, "orderbot_refund_pending_oldest_age_seconds")).toBeGreaterThanOrEqual(
      300,
    );
    // The lock module's metrics share the registry.
    expect(text).toContain("# TYPE orderbot_lock_acquire_total ");
  });
});
