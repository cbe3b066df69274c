// The webhook endpoint over a real pipeline (PostgreSQL's ProcessedUpdate and the Redis `update`
// lock), with a trivial handler in place of the bot: what gets to the handler, what is recorded,
// and what Telegram is answered.
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createDatabase, createProcessedUpdates } from "@orderbot/db";
import { createLockManager, type LockManager } from "@orderbot/lock";
import { LOCK_KINDS } from "@orderbot/core";
import { createLogger, createMetricsRegistry, Redis, silentLogger } from "@orderbot/platform";
import {
  createTestDatabase,
  createTestRedis,
  freePort,
  type TestDatabase,
  type TestRedis,
} from "@orderbot/testkit";
import { createBotMetrics } from "../src/metrics.ts";
import { createServer, WEBHOOK_PATH } from "../src/server.ts";
import { createUpdatePipeline } from "../src/updates/pipeline.ts";
import { privateText } from "./support/updates.ts";

const SECRET = "test-webhook-secret_0123456789abcdef";
const BOT_ID = 4242n;

let testDb: TestDatabase;
let testRedis: TestRedis;
let locks: LockManager;
let handled: number[];
/** When set, the handler signals `entered` and waits for `hold` before it finishes. */
let gate: { hold: Promise<void>; entered: () => void } | null;
let failNext: boolean;
let server: ReturnType<typeof createServer>;

const message = (updateId: number) => privateText(updateId, "hi");

function post(
  body: unknown,
  headers: Record<string, string> = { "x-telegram-bot-api-secret-token": SECRET },
) {
  return server.inject({
    method: "POST",
    url: WEBHOOK_PATH,
    headers: { "content-type": "application/json", ...headers },
    payload: typeof body === "string" ? body : JSON.stringify(body),
  });
}

const processedCount = () => testDb.db.processedUpdate.count();

beforeAll(async () => {
  testDb = await createTestDatabase();
  testRedis = await createTestRedis();
  locks = createLockManager({
    redis: testRedis.redis,
    namespace: testRedis.namespace,
    hashKey: "server-test-hash-key",
    kinds: LOCK_KINDS,
  });
  const registry = createMetricsRegistry();
  const processUpdate = createUpdatePipeline({
    botId: BOT_ID,
    processed: createProcessedUpdates(testDb.db),
    locks,
    rateLimiter: { admits: () => Promise.resolve(true) },
    refuse: () => Promise.resolve(),
    metrics: createBotMetrics(registry),
    logger: silentLogger,
    handle: async (update) => {
      if (gate) {
        gate.entered();
        await gate.hold;
      }
      if (failNext) {
        failNext = false;
        throw new Error("handler failed");
      }
      handled.push(update.update_id);
    },
  });
  server = createServer({
    processUpdate,
    checks: { database: () => testDb.db.$queryRaw`SELECT 1`, redis: () => testRedis.redis.ping() },
    registry,
    logger: silentLogger,
    webhookSecret: SECRET,
    bodyLimit: 1_048_576,
    metricsToken: "metrics-token-0123456789",
  });
  await server.ready();
});

afterAll(async () => {
  await server?.close();
  await locks?.close();
  await testRedis?.cleanup();
  await testDb?.drop();
});

beforeEach(() => {
  handled = [];
  gate = null;
  failNext = false;
});

describe("POST /telegram/webhook", () => {
  it("runs an update once and records it; a re-delivery is acknowledged without running it again", async () => {
    expect((await post(message(1))).statusCode).toBe(200);
    expect((await post(message(1))).statusCode).toBe(200);
    expect(handled).toEqual([1]);
    expect(await testDb.db.processedUpdate.findMany({ select: { updateId: true } })).toEqual([
      { updateId: 1n },
    ]);
  });

  it("answers 503 to a re-delivery that arrives while the first delivery is still running", async () => {
    let release!: () => void;
    let entered!: () => void;
    const running = new Promise<void>((resolve) => (entered = resolve));
    gate = { hold: new Promise<void>((resolve) => (release = resolve)), entered };
    const first = post(message(2));
    await running;
    const second = await post(message(2));
    expect(second.statusCode).toBe(503);
    release();
    expect((await first).statusCode).toBe(200);
    expect(handled).toEqual([2]);
  });

  it("answers 500 when the handler fails, records nothing, and runs the re-delivery", async () => {
    failNext = true;
    const before = await processedCount();
    expect((await post(message(3))).statusCode).toBe(500);
    expect(await processedCount()).toBe(before);
    expect((await post(message(3))).statusCode).toBe(200);
    expect(handled).toEqual([3]);
  });

  it.each([
    ["a missing secret", {}],
    ["a wrong secret", { "x-telegram-bot-api-secret-token": "wrong" }],
    ["a secret that differs in case", { "x-telegram-bot-api-secret-token": SECRET.toUpperCase() }],
  ])("answers 401 to %s and processes nothing", async (_label, headers) => {
    const before = await processedCount();
    const response = await post(message(10), headers);
    expect(response.statusCode).toBe(401);
    expect(handled).toEqual([]);
    expect(await processedCount()).toBe(before);
  });

  it("answers 413 to a 2 MB body", async () => {
    const response = await post({ update_id: 11, message: { text: "x".repeat(2 * 1024 * 1024) } });
    expect(response.statusCode).toBe(413);
    expect(handled).toEqual([]);
  });

  it.each([
    ["malformed JSON", '{"update_id": 12,'],
    ["an array", "[1,2]"],
    ["no update_id", { message: {} }],
    ["a fractional update_id", { update_id: 1.5 }],
    ["a string update_id", { update_id: "13" }],
  ])("answers 400 to %s", async (_label, body) => {
    const before = await processedCount();
    expect((await post(body)).statusCode).toBe(400);
    expect(await processedCount()).toBe(before);
  });

  it("acknowledges a mangled or unhandled update without running or recording it", async () => {
    const before = await processedCount();
    for (const body of [
      { update_id: 20 },
      { update_id: 21, message: { message_id: "x", chat: { id: 5, type: "private" }, date: 0 } },
      { update_id: 22, callback_query: { id: "q", data: "o:1:1" } },
      { update_id: 23, poll: { id: "p" } },
      { update_id: 24, message: message(24).message, callback_query: { id: "q" } },
    ]) {
      expect((await post(body)).statusCode).toBe(200);
    }
    expect(handled).toEqual([]);
    expect(await processedCount()).toBe(before);
  });
});

describe("refused webhook requests", () => {
  it("are all counted by reason, and warned about once per interval with the peer, never the header", async () => {
    const lines: Record<string, unknown>[] = [];
    const stream = new PassThrough();
    stream.on("data", (chunk: Buffer) =>
      lines.push(
        ...chunk
          .toString()
          .split("\n")
          .filter(Boolean)
          .map((line) => JSON.parse(line) as Record<string, unknown>),
      ),
    );
    let clock = 1_000_000;
    const registry = createMetricsRegistry();
    const guarded = createServer({
      processUpdate: () => Promise.reject(new Error("no update may get through")),
      checks: { database: async () => 1, redis: async () => 1 },
      registry,
      logger: createLogger({ level: "info", destination: stream }),
      webhookSecret: SECRET,
      bodyLimit: 1024,
      metricsToken: null,
      rejectionWarning: { intervalMs: 60_000, now: () => clock },
    });
    const guess = "guessed-secret-value-7f3a9c";
    const attempt = (headers: Record<string, string>) =>
      guarded.inject({
        method: "POST",
        url: WEBHOOK_PATH,
        remoteAddress: "203.0.113.9",
        headers: { "content-type": "application/json", ...headers },
        payload: JSON.stringify(message(30)),
      });
    try {
      for (let i = 0; i < 5; i++)
        expect((await attempt({ "x-telegram-bot-api-secret-token": guess })).statusCode).toBe(401);
      expect((await attempt({})).statusCode).toBe(401);
      clock += 60_000;
      expect((await attempt({})).statusCode).toBe(401);
      await new Promise((resolve) => setImmediate(resolve));

      const metrics = await registry.metrics();
      expect(metrics).toContain('orderbot_webhook_rejected_total{reason="wrong"} 5');
      expect(metrics).toContain('orderbot_webhook_rejected_total{reason="missing"} 2');
      const warnings = lines.filter(
        (l) => l.msg === "webhook request refused: secret header missing or wrong",
      );
      expect(warnings).toHaveLength(2);
      expect(warnings[0]).toMatchObject({
        level: 40,
        reason: "wrong",
        peer: "203.0.113.9",
        heldBack: 0,
      });
      // The five held back in the first minute are reported with the next warning.
      expect(warnings[1]).toMatchObject({ reason: "missing", peer: "203.0.113.9", heldBack: 5 });
      expect(JSON.stringify(lines)).not.toContain(guess);
      expect(JSON.stringify(lines)).not.toContain(SECRET);
    } finally {
      await guarded.close();
    }
  });
});

describe("health, readiness and metrics", () => {
  it("reports alive and ready", async () => {
    expect((await server.inject({ url: "/healthz" })).json()).toEqual({ ok: true });
    expect((await server.inject({ url: "/readyz" })).json()).toEqual({
      ok: true,
      database: "ok",
      redis: "ok",
      degraded: false,
    });
  });

  it("stays ready, degraded, while Redis is unreachable, and is not ready without PostgreSQL", async () => {
    const port = await freePort(); // nothing listens there
    const deadRedis = new Redis({
      port,
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
    });
    const deadDb = createDatabase({
      url: `postgresql://orderbot@127.0.0.1:${port}/none`,
      connectTimeoutMs: 500,
    });
    const probe = (checks: Parameters<typeof createServer>[0]["checks"]) =>
      createServer({
        processUpdate: () => Promise.reject(new Error("no updates here")),
        checks,
        registry: createMetricsRegistry(),
        logger: silentLogger,
        webhookSecret: SECRET,
        bodyLimit: 1024,
        metricsToken: null,
      });
    const liveDb = () => testDb.db.$queryRaw`SELECT 1`;
    const withoutRedis = probe({ database: liveDb, redis: () => deadRedis.ping() });
    const withoutDb = probe({
      database: () => deadDb.$queryRaw`SELECT 1`,
      redis: () => testRedis.redis.ping(),
    });
    try {
      const degraded = await withoutRedis.inject({ url: "/readyz" });
      expect(degraded.statusCode).toBe(200);
      expect(degraded.json()).toEqual({ ok: true, database: "ok", redis: "down", degraded: true });
      const down = await withoutDb.inject({ url: "/readyz" });
      expect(down.statusCode).toBe(503);
      expect(down.json()).toEqual({ ok: false, database: "down", redis: "ok", degraded: false });
    } finally {
      await Promise.all([withoutRedis.close(), withoutDb.close(), deadDb.$disconnect()]);
      deadRedis.disconnect();
    }
  });

  it("serves metrics only with the token", async () => {
    expect((await server.inject({ url: "/metrics" })).statusCode).toBe(401);
    const response = await server.inject({
      url: "/metrics",
      headers: { authorization: "Bearer metrics-token-0123456789" },
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain("orderbot_updates_total");
  });
});
