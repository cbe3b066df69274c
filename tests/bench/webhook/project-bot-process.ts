// The project's bot, as main.ts builds it (the bot's public API), in a process of its own for the
// webhook bench: webhook mode on the fake Bot API of the bench, a database cloned from the
// template, a Redis of the bench's own. The rate limit stays in the path with a limit no sender
// reaches (every sender is a distinct user anyway). Answers the bench's requests: "mark" (CPU,
// statements, commits and Redis commands so far), "profile:start" and "profile:stop".
//
// With BENCH_WITHOUT_SAFETY=1 it is a measurement, never an option of the bot: the same app
// with the update pipeline's safety machinery answered in this process instead of sent: the update
// record (has: never; mark: nothing), the `update` lock (the task runs lockless) and the rate limit
// (every update admitted). What it gains over the real bot is what that machinery costs.
import { createBotApp, parseBotConfig, WEBHOOK_PATH } from "@orderbot/bot";
import type { Database } from "@orderbot/db";
import type { LockManager } from "@orderbot/lock";
import { createMetricsRegistry, Redis, silentLogger, waitForRedis } from "@orderbot/platform";
import { createRuntime } from "@orderbot/runtime";
import { freePort } from "@orderbot/testkit";
import { countRedisCommands, countSqlStatements } from "../profile/counters.ts";
import { serveBot } from "./bot-child.ts";

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} must be set`);
  return value;
};

countSqlStatements();
const port = await freePort();
const config = parseBotConfig({
  NODE_ENV: "test",
  LOG_LEVEL: "silent",
  BOT_TOKEN: env("BENCH_BOT_TOKEN"),
  BOT_MODE: "webhook",
  TELEGRAM_API_ROOT: env("BENCH_API_ROOT"),
  WEBHOOK_SECRET: env("BENCH_WEBHOOK_SECRET"),
  PUBLIC_URL: `http://127.0.0.1:${port}`,
  PORT: String(port),
  DATABASE_URL: env("BENCH_DATABASE_URL"),
  REDIS_URL: env("BENCH_REDIS_URL"),
  LOCK_NAMESPACE: "bench:webhook",
  LOCK_HASH_KEY: "bench-hash-key-0123456789",
  RATE_LIMIT_PER_WINDOW: "1000000",
  REDIS_COMMAND_TIMEOUT_MS: "2000",
});
const registry = createMetricsRegistry();
const runtime = createRuntime(config, { name: "bench", logger: silentLogger, registry });
const { db, redis, locks } = runtime;
await waitForRedis(redis);
if (!(redis instanceof Redis)) throw new Error("the bench runs on one Redis node");
countRedisCommands(redis);
const withoutSafety = process.env.BENCH_WITHOUT_SAFETY === "1";
const app = createBotApp({
  ...runtime,
  config,
  logger: silentLogger,
  ...(withoutSafety
    ? {
        db: withoutUpdateRecord(db),
        redis: withoutRateLimit(redis),
        locks: withoutUpdateLock(locks),
      }
    : {}),
  registry,
});
await app.start();

serveBot(async () => {
  await app.close();
  await runtime.close();
});

/**
 * The update record's two statements, answered here: no update is found (`processedUpdate`'s
 * findUnique), none recorded (the one `$executeRaw` that inserts into processed_updates).
 */
function withoutUpdateRecord(real: Database): Database {
  const processedUpdate = { findUnique: async () => null };
  const executeRaw = (strings: TemplateStringsArray, ...values: unknown[]) =>
    strings.join("").includes("INSERT INTO processed_updates")
      ? Promise.resolve(0)
      : real.$executeRaw(strings, ...values);
  return new Proxy(real, {
    get: (target, key, receiver) =>
      key === "processedUpdate"
        ? processedUpdate
        : key === "$executeRaw"
          ? executeRaw
          : Reflect.get(target, key, receiver),
  });
}

/** The rate limit's script (the only EVALSHA on the app's own client) admits every update. */
function withoutRateLimit(real: typeof redis): typeof redis {
  return new Proxy(real, {
    get: (target, key, receiver) =>
      key === "evalsha" ? async () => 1 : Reflect.get(target, key, receiver),
  });
}

/** The `update` kind runs its task lockless; every other kind keeps its lock. */
function withoutUpdateLock(real: LockManager): LockManager {
  const withLock: LockManager["withLock"] = async (resource, fn, options) =>
    resource.kind === "update"
      ? {
          status: "ok",
          value: await fn({ lease: null, signal: new AbortController().signal }),
          fence: null,
          degraded: false,
          lost: null,
        }
      : real.withLock(resource, fn, options);
  return new Proxy(real, {
    get: (target, key, receiver) =>
      key === "withLock" ? withLock : Reflect.get(target, key, receiver),
  });
}

process.send!({ ready: { url: `${config.PUBLIC_URL}${WEBHOOK_PATH}` } });
