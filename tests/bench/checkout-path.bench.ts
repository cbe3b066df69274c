// One Checkout through the whole bot, in-process (real PostgreSQL and Redis, the fake Telegram):
// the project source files whose code ran for it, and the SQL statements it sent, by kind.
import { Session } from "node:inspector/promises";
import path from "node:path";
import { createBotApp, parseBotConfig } from "@orderbot/bot";
import { seedCatalog } from "@orderbot/db";
import { startFakeTelegram } from "@orderbot/fake-telegram";
import { createMetricsRegistry, silentLogger } from "@orderbot/platform";
import { createRuntime } from "@orderbot/runtime";
import {
  createTestDatabase,
  createTestRedis,
  freePort,
  prepareTemplateDatabase,
} from "@orderbot/testkit";
import { countSqlStatements, sqlCounts } from "./profile/counters.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const PRODUCT =
  /\/(apps\/bot|packages\/(core|conversation|db|platform|lock|runtime|locales))\/src\//;

await prepareTemplateDatabase();
const h = await startBot();
const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.startPreciseCoverage", { callCount: true, detailed: false });
countSqlStatements();

async function checkoutOnce(name: string) {
  const user = h.kit.createUser({ firstName: name, languageCode: "en" });
  await user.send("/start");
  await user.waitForMessage(/./);
  const product = await h.db.product.findUniqueOrThrow({ where: { sku: "TEA-PUER" } });
  await h.db.cart.create({
    data: { userId: BigInt(user.id), items: { create: [{ productId: product.id, quantity: 1 }] } },
  });
  await user.send("/cart");
  await user.waitForMessage(/Your cart/);
  await session.post("Profiler.takePreciseCoverage");
  const before = sqlCounts();
  const press = await user.press(/^✅ Checkout/);
  await press.handled();
  const { result } = await session.post("Profiler.takePreciseCoverage");
  const after = sqlCounts();
  const files = new Set(
    result
      .filter((s) => PRODUCT.test(s.url) && !s.url.includes("/generated/"))
      .filter((s) => s.functions.some((f) => f.ranges[0]!.count > 0))
      .map((s) => path.relative(ROOT, new URL(s.url).pathname)),
  );
  const kinds = Object.entries(after.byKind)
    .map(([k, n]) => [k, n - (before.byKind[k] ?? 0)] as const)
    .filter(([, n]) => n > 0);
  return {
    files: [...files].sort(),
    statements: after.statements - before.statements,
    commits: after.commits - before.commits,
    kinds,
  };
}

// A shop with its operator group bound, as in production: the low-stock check looks at it.
await h.shop.groups.bind({ chatId: -1_001_234, title: "Ops", boundBy: 1 });
await checkoutOnce("Warm");
const run = await checkoutOnce("Measured");
console.log(run.files.join("\n"));
console.log(run.kinds.map(([k, n]) => `${n} × ${k}`).join("\n"));
console.log(
  `files: ${run.files.length}, SQL statements: ${run.statements}, commits: ${run.commits}`,
);
await h.close();
process.exit(0);

/** The bot as main.ts builds it, in this process, webhook mode, against the fake Telegram. */
async function startBot() {
  const [testDb, testRedis, kit, port] = await Promise.all([
    createTestDatabase(),
    createTestRedis(),
    startFakeTelegram(),
    freePort(),
  ]);
  await seedCatalog(testDb.db);
  const config = parseBotConfig({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    BOT_TOKEN: kit.token,
    TELEGRAM_API_ROOT: kit.apiRoot,
    WEBHOOK_SECRET: "checkout-path-webhook-secret_0123456789",
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    PORT: String(port),
    DATABASE_URL: testDb.url,
    REDIS_URL: testRedis.url,
    LOCK_NAMESPACE: testRedis.namespace,
    LOCK_HASH_KEY: "checkout-path-hash-key-0123",
  });
  const registry = createMetricsRegistry();
  const runtime = createRuntime(config, { name: "bot", logger: silentLogger, registry });
  const { shop } = runtime;
  const app = createBotApp({ ...runtime, config, logger: silentLogger, registry });
  await app.start();
  return {
    kit,
    shop,
    db: testDb.db,
    async close() {
      await app.close();
      await kit.close();
      await runtime.close();
      await testRedis.cleanup();
      await testDb.drop();
    },
  };
}
