// The webhook bench's bots, each in a process of its own: the project's bot, the same bot with its
// safety machinery answered in-process (the measurement), and the plain grammY baseline.
import path from "node:path";
import { parseBotConfig } from "@orderbot/bot";
import { startChild, type Child } from "./child.ts";
import { WEBHOOK_SECRET } from "./targets.ts";

const BENCH = path.join(import.meta.dirname, "..");

export interface FakeBotApi {
  child: Child;
  ready: { token: string; apiRoot: string; botInfo: unknown };
}

interface Services {
  project: { db: string; redis: string };
  measurement: { db: string; redis: string };
  plain: { db: string };
}

type Bot = Awaited<ReturnType<typeof startChild<{ url: string }>>>;

/** Starts the three bots against `fake`, adding each child to `children` (to close). */
export async function startBots(
  fake: FakeBotApi,
  children: Child[],
  services: Services,
): Promise<{ project: Bot; measurement: Bot; plain: Bot }> {
  const start = async (file: string, env: Record<string, string>) => {
    const bot = await startChild<{ url: string }>(path.join(BENCH, file), {
      BENCH_BOT_TOKEN: fake.ready.token,
      BENCH_API_ROOT: fake.ready.apiRoot,
      BENCH_WEBHOOK_SECRET: WEBHOOK_SECRET,
      ...env,
    });
    children.push(bot.child);
    return bot;
  };
  const project = await start("webhook/project-bot-process.ts", {
    BENCH_DATABASE_URL: services.project.db,
    BENCH_REDIS_URL: services.project.redis,
  });
  const measurement = await start("webhook/project-bot-process.ts", {
    BENCH_DATABASE_URL: services.measurement.db,
    BENCH_REDIS_URL: services.measurement.redis,
    BENCH_WITHOUT_SAFETY: "1",
  });
  // The plain bot gets the same pool size as the project's bot (its DATABASE_POOL_MAX default).
  const poolMax = parseBotConfig({
    NODE_ENV: "test",
    BOT_TOKEN: fake.ready.token,
    DATABASE_URL: services.project.db,
    REDIS_URL: services.project.redis,
    LOCK_HASH_KEY: "bench-hash-key-0123456789",
  }).DATABASE_POOL_MAX;
  const plain = await start("baseline/plain-bot.ts", {
    BENCH_DATABASE_URL: services.plain.db,
    BENCH_POOL_MAX: String(poolMax),
    BENCH_BOT_INFO: JSON.stringify(fake.ready.botInfo),
  });
  return { project, measurement, plain };
}
