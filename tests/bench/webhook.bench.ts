// npm run bench -- webhook — webhook ingest: the bot's real webhook with real processing beside a bare
// Fastify route that answers 200, driven by the same load in the same process.
//
// "Telegram" here is a pool of concurrent senders (Telegram's default max_connections is 40), each
// POSTing updates from its own users, one at a time per user as Telegram does per chat. An update is
// `/catalog` from a distinct user: the secret check, update dedupe (a PostgreSQL lookup, the Redis
// `update` lock, the ProcessedUpdate insert), the grammY features (a catalog query, i18n) and a
// sendMessage to the fake Bot API, which runs in this process too.
// Results: printed, and written to docs/benchmarks.md between the bench:webhook markers.
import Fastify from "fastify";
import type { AddressInfo } from "node:net";
import { createBotApp, parseBotConfig, WEBHOOK_PATH } from "@orderbot/bot";
import { createShop, LOCK_KINDS } from "@orderbot/core";
import { seedCatalog } from "@orderbot/db";
import { startFakeTelegram } from "@orderbot/fake-telegram";
import { createLockManager } from "@orderbot/lock";
import { createMetricsRegistry, silentLogger } from "@orderbot/platform";
import {
  createTestDatabase,
  createTestRedis,
  environmentLine,
  formatMs,
  formatRate,
  formatTable,
  freePort,
  markdownTable,
  packageVersion,
  percentile,
  prepareTemplateDatabase,
  recordSummary,
  Samples,
  writeSection,
} from "@orderbot/testkit";

const CELL_MS = Number(process.env.BENCH_CELL_MS ?? 4000);
const ROUNDS = 4;
const SENDERS = 32;
const WEBHOOK_SECRET = "bench-webhook-secret_0123456789abcdef";

/**
 * The whole bot in this process, built as main.ts builds it (the bot's public API), on a database
 * cloned from the template, a Redis namespace of its own and the fake Telegram; the rate limit is
 * out of the way, since every sender is a distinct user anyway.
 */
async function startWebhookBot() {
  const testDb = await createTestDatabase();
  const testRedis = await createTestRedis();
  const kit = await startFakeTelegram({ webhook: { retryBaseMs: 50, retryMaxMs: 500 } });
  await seedCatalog(testDb.db);
  const port = await freePort();
  const config = parseBotConfig({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    BOT_TOKEN: kit.token,
    BOT_MODE: "webhook",
    TELEGRAM_API_ROOT: kit.apiRoot,
    WEBHOOK_SECRET,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    PORT: String(port),
    DATABASE_URL: testDb.url,
    REDIS_URL: testRedis.url,
    LOCK_NAMESPACE: testRedis.namespace,
    LOCK_HASH_KEY: "bench-hash-key-0123456789",
    RATE_LIMIT_PER_WINDOW: "1000000",
  });
  const registry = createMetricsRegistry();
  const locks = createLockManager({
    redis: testRedis.redis,
    namespace: config.LOCK_NAMESPACE,
    kinds: LOCK_KINDS,
    hashKey: config.LOCK_HASH_KEY,
    registry,
  });
  const shop = createShop({
    db: testDb.db,
    locks,
    registry,
    config: {
      maskKey: config.LOCK_HASH_KEY,
      reservationTtlMs: config.RESERVATION_MINUTES * 60_000,
    },
  });
  const app = createBotApp({
    config,
    logger: silentLogger,
    db: testDb.db,
    redis: testRedis.redis,
    locks,
    shop,
    registry,
  });
  await app.start();
  return {
    webhookUrl: `${config.PUBLIC_URL}${WEBHOOK_PATH}`,
    db: testDb.db,
    async close() {
      await app.close();
      await kit.close();
      await locks.close();
      await testRedis.cleanup();
      await testDb.drop();
    },
  };
}

interface Target {
  name: string;
  url: string;
  samples: Samples;
  elapsedMs: number;
  failures: number;
}

let nextUpdateId = 1;
let nextUser = 7_500_000_001;

function catalogUpdate(userId: number) {
  return {
    update_id: nextUpdateId++,
    message: {
      message_id: nextUpdateId,
      date: Math.floor(Date.now() / 1000),
      chat: { id: userId, type: "private", first_name: "Bench" },
      from: { id: userId, is_bot: false, first_name: "Bench", language_code: "en" },
      text: "/catalog",
      entities: [{ type: "bot_command", offset: 0, length: 8 }],
    },
  };
}

async function drive(target: Target, ms: number, record: boolean): Promise<void> {
  let stop = false;
  const sender = async () => {
    while (!stop) {
      const body = JSON.stringify(catalogUpdate(nextUser++));
      const started = performance.now();
      const response = await fetch(target.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-telegram-bot-api-secret-token": WEBHOOK_SECRET,
        },
        body,
      });
      await response.arrayBuffer();
      if (!record || stop) continue;
      if (response.status === 200) target.samples.add(performance.now() - started);
      else target.failures++;
    }
  };
  const started = performance.now();
  const senders = Array.from({ length: SENDERS }, sender);
  await new Promise((resolve) => setTimeout(resolve, ms));
  stop = true;
  if (record) target.elapsedMs += performance.now() - started;
  await Promise.all(senders);
}

async function main(): Promise<void> {
  await prepareTemplateDatabase();
  const bot = await startWebhookBot();
  const bare = Fastify();
  bare.post("/telegram/webhook", async () => ({ ok: true }));
  await bare.listen({ port: 0, host: "127.0.0.1" });
  const barePort = (bare.server.address() as AddressInfo).port;

  const targets: Target[] = [
    {
      name: "bot webhook, real processing",
      url: bot.webhookUrl,
      samples: new Samples(),
      elapsedMs: 0,
      failures: 0,
    },
    {
      name: "bare Fastify route (200)",
      url: `http://127.0.0.1:${barePort}/telegram/webhook`,
      samples: new Samples(),
      elapsedMs: 0,
      failures: 0,
    },
  ];
  try {
    for (const target of targets) await drive(target, 500, false);
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < targets.length; i++)
        await drive(targets[(i + round) % targets.length]!, CELL_MS / ROUNDS, true);
    }
    const processed = await bot.db.processedUpdate.count();
    console.log(`updates recorded as processed by the bot: ${processed}`);
  } finally {
    await bare.close();
    await bot.close();
  }

  const bareRate = (targets[1]!.samples.length / targets[1]!.elapsedMs) * 1000;
  const rows = targets.map((t) => {
    const sorted = t.samples.sorted();
    const rate = (t.samples.length / t.elapsedMs) * 1000;
    return { t, rate, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
  });
  const header = ["target", "updates/s", "p50", "p99", "non-2xx", "vs bare route"];
  const table = rows.map((r) => [
    r.t.name,
    formatRate(r.rate),
    formatMs(r.p50),
    formatMs(r.p99),
    r.t.failures,
    `${(r.rate / bareRate).toFixed(3)}x`,
  ]);
  console.log(`\n${formatTable(header, table)}\n`);

  recordSummary(
    "webhook",
    rows.map((r) => ({
      scenario: `webhook ingest, ${SENDERS} senders`,
      subject: r.t.name,
      rate: r.rate,
      unit: "updates/s",
      p50: r.p50,
      p99: r.p99,
      ratio: r.rate / bareRate,
      ratioAgainst: "bare Fastify route",
    })),
  );
  writeSection(
    "webhook",
    [
      "## Webhook ingest (`npm run bench -- webhook`)",
      "",
      environmentLine({
        fastify: packageVersion("fastify"),
        grammy: packageVersion("grammy"),
        "@prisma/client": packageVersion("@prisma/client"),
      }),
      "",
      `${SENDERS} concurrent senders POST \`/catalog\` updates, each from a new user, for ${CELL_MS} ms per target (in ${ROUNDS} alternating`,
      "rounds after a warm-up). The bot's webhook does everything it does in production: the secret check, update dedupe in",
      "PostgreSQL and Redis, the grammY features (a catalog query, i18n) and a sendMessage to the fake Bot API, which runs",
      "in the same process and takes its share of the CPU. The bare route parses the same JSON and answers 200: the",
      "ceiling of the HTTP layer on this machine.",
      "",
      markdownTable(header, table),
    ].join("\n"),
  );
  console.log("wrote the bench:webhook section of docs/benchmarks.md");
}

await main();
