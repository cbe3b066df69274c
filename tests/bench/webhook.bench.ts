// npm run bench -- webhook [--seconds N] — the project's bot webhook against what a user would
// otherwise write: a plain grammY bot (tests/bench/baseline/plain-bot.ts, a BASELINE, not the
// project) doing the same visible work, and a bare Fastify route as the HTTP ceiling.
//
// "Telegram" here is a pool of concurrent senders (32; Telegram's default max_connections is 40),
// each POSTing `/catalog` updates, every one from a user new to the bot. Before the run every such
// user has opened their chat with the fake Bot API (created, sent /start, that update dropped), so
// each reply's sendMessage succeeds; every answer of the Bot API that is not a success, and every
// webhook answer that is not 200, is a failure of the run: printed, and the run exits non-zero.
// The fake Bot API and each bot run in processes of their own (tests/bench/webhook/*-process.ts);
// the senders and the bare route run in this one. CPU per update is the bot process's own.
// After the measured rounds, one more short phase per bot runs under a CPU profile: where one
// update's time goes, by module. Beside them runs a measurement, never an option of the bot: the
// project's bot with its update pipeline's safety machinery (the update record, the update lock,
// the rate limit) answered in its own process (BENCH_WITHOUT_SAFETY, project-bot-process.ts):
// what it gains is what that machinery costs, end to end, and its ratio to the baseline is the
// bound the shop's own work leaves on the target. Results: printed, and written between the
// bench:webhook markers.
import Fastify from "fastify";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { seedCatalog } from "@orderbot/db";
import { createRedis, type Redis } from "@orderbot/platform";
import {
  cellTime,
  createTestDatabase,
  formatMs,
  formatTable,
  interleave,
  prepareTemplateDatabase,
  recordSummary,
  startRedisServer,
  writeSection,
  type ProfileShare,
} from "@orderbot/testkit";
import { commandStats, deltaOf, type RedisCounts, type SqlCounts } from "./profile/counters.ts";
import { startBots } from "./webhook/bots.ts";
import { startChild, type Child } from "./webhook/child.ts";
import type { CallReport } from "./webhook/fake-telegram-process.ts";
import { webhookSection } from "./webhook/section.ts";
import {
  countsTable,
  failuresOf,
  mainTable,
  profileTable,
  statsOf,
  targetLine,
} from "./webhook/tables.ts";
import {
  add,
  botTarget,
  drive,
  routeTarget,
  SENDERS,
  type BotTarget,
  type Target,
} from "./webhook/targets.ts";

const CELL_MS = cellTime(4000);
const ROUNDS = 4;
const WARMUP_MS = 500;
const PROFILE_MS = Math.min(2000, CELL_MS / 2);
/** Users opened per bot: enough for this many updates per second over its whole run. */
const POOL_RATE = Number(process.env.BENCH_POOL_RATE ?? 4000);
const MEASUREMENT_NAME =
  "MEASUREMENT: the project's bot, update record, update lock and rate limit answered in-process";
const HERE = import.meta.dirname;

interface Mark {
  cpuMs: number;
  sql: SqlCounts;
  redis: RedisCounts;
}

/** The Bot API calls since the last look, charged to `target`. */
function callCounter(fake: Child) {
  let seq = 0;
  return async (target: BotTarget | undefined, measured = false) => {
    const report = await fake.request<CallReport>("calls", { since: seq });
    seq = report.seq;
    if (!target) return;
    if (measured) target.apiCalls += report.calls;
    add(target.apiFailures, report.failures);
  };
}

/** One measured turn of a bot: the updates it answered, and its CPU and counts meanwhile. */
async function measuredTurn(target: BotTarget, ms: number): Promise<void> {
  const before = await target.child.request<Mark>("mark");
  target.handled += await drive(target, ms, true);
  const after = await target.child.request<Mark>("mark");
  target.cpuMs += after.cpuMs - before.cpuMs;
  target.statements += after.sql.statements - before.sql.statements;
  target.commits += after.sql.commits - before.sql.commits;
  add(target.sqlByKind, deltaOf(before.sql.byKind, after.sql.byKind));
  target.redisCommands += after.redis.commands - before.redis.commands;
  add(target.redisByName, deltaOf(before.redis.byName, after.redis.byName));
}

/** Warm-ups, the interleaved rounds, then a short phase per bot under the CPU profiler. */
async function measure(
  targets: Target[],
  bots: [BotTarget, BotTarget],
  admin: Redis,
  collectCalls: ReturnType<typeof callCounter>,
): Promise<Record<string, number>> {
  for (const target of targets) {
    await drive(target, WARMUP_MS, false);
    await collectCalls(target.kind === "bot" ? target : undefined);
  }
  const statsBefore = await commandStats(admin);
  const turn = CELL_MS / ROUNDS;
  await interleave(
    targets,
    ROUNDS,
    async (target) => {
      if (target.kind === "route") {
        await drive(target, turn, true);
        return;
      }
      await measuredTurn(target, turn);
      await collectCalls(target, true);
    },
    { rotate: true },
  );
  const serverCommands = deltaOf(statsBefore, await commandStats(admin));
  delete serverCommands.info;
  for (const target of bots) {
    await target.child.request("profile:start");
    const updates = await drive(target, PROFILE_MS, false);
    const profile = await target.child.request<{ totalMs: number; shares: ProfileShare[] }>(
      "profile:stop",
    );
    target.profile = { ...profile, updates };
    await collectCalls(target);
  }
  return serverCommands;
}

async function main(): Promise<void> {
  await prepareTemplateDatabase();
  const projectDb = await createTestDatabase();
  const plainDb = await createTestDatabase();
  const measurementDb = await createTestDatabase();
  await seedCatalog(projectDb.db);
  await seedCatalog(plainDb.db);
  await seedCatalog(measurementDb.db);
  const redisServer = await startRedisServer();
  const measurementRedis = await startRedisServer();
  const admin = createRedis({ url: redisServer.url, commandTimeoutMs: 2_000 });
  const children: Child[] = [];
  const bare = Fastify();
  let failed = false;
  try {
    const fake = await startChild<{ token: string; apiRoot: string; botInfo: unknown }>(
      path.join(HERE, "webhook/fake-telegram-process.ts"),
      {},
    );
    children.push(fake.child);
    const perTarget = Math.ceil(
      (POOL_RATE * (CELL_MS + ROUNDS * 50 + WARMUP_MS + PROFILE_MS)) / 1000,
    );
    const firstUser = 7_500_000_001;
    const opening = performance.now();
    await fake.child.request("open", { firstUserId: firstUser, count: 3 * perTarget });
    console.log(
      `opened ${3 * perTarget} chats with the fake Bot API in ${formatMs(performance.now() - opening)}`,
    );
    const { project, measurement, plain } = await startBots(fake, children, {
      project: { db: projectDb.url, redis: redisServer.url },
      measurement: { db: measurementDb.url, redis: measurementRedis.url },
      plain: { db: plainDb.url },
    });
    bare.post("/telegram/webhook", async () => ({ ok: true }));
    await bare.listen({ port: 0, host: "127.0.0.1" });
    const barePort = (bare.server.address() as AddressInfo).port;

    const projectTarget = botTarget(
      "the project's bot webhook",
      project.ready.url,
      project.child,
      firstUser,
      perTarget,
    );
    const plainTarget = botTarget(
      "BASELINE: plain grammY bot (webhookCallback on Fastify)",
      plain.ready.url,
      plain.child,
      firstUser + perTarget,
      perTarget,
    );
    const measurementTarget = botTarget(
      MEASUREMENT_NAME,
      measurement.ready.url,
      measurement.child,
      firstUser + 2 * perTarget,
      perTarget,
    );
    const route = routeTarget(
      "bare Fastify route (200)",
      `http://127.0.0.1:${barePort}/telegram/webhook`,
    );
    const targets: Target[] = [projectTarget, plainTarget, measurementTarget, route];
    const bots: [BotTarget, BotTarget] = [projectTarget, plainTarget];
    const collectCalls = callCounter(fake.child);
    await collectCalls(undefined); // the bots' start-up calls (getMe, setWebhook, commands)
    const serverCommands = await measure(targets, bots, admin, collectCalls);
    // The measurement row is only what it says if none of the machinery ran in it.
    const sent = { ...measurementTarget.sqlByKind, ...measurementTarget.redisByName };
    for (const [kind, n] of Object.entries(sent))
      if (kind.includes("processed_updates") || kind === "evalsha")
        measurementTarget.webhookFailures[`its safety machinery still ran: ${kind}`] = n;
    const processed = await projectDb.db.processedUpdate.count();
    console.log(`updates recorded as processed by the project's bot: ${processed}`);

    const stats = targets.map(statsOf);
    const [projectStats, plainStats, measurementStats] = stats as [
      (typeof stats)[0],
      (typeof stats)[0],
      (typeof stats)[0],
    ];
    const main = mainTable(stats);
    const line = targetLine(projectStats, plainStats, measurementStats);
    const profile = profileTable(bots);
    const counts = countsTable(bots, serverCommands);
    console.log(`\n${formatTable(main.header, main.rows)}\n`);
    console.log(`${line}\n`);
    console.log(`${formatTable(profile.header, profile.rows)}\n`);
    console.log(`${formatTable(counts.header, counts.rows)}\n`);
    for (const t of targets) {
      for (const [what, n] of Object.entries(failuresOf(t))) {
        console.log(`FAILURE ${t.name}: ${what} x${n}`);
        failed = true;
      }
    }

    if (failed) {
      console.log("the run had failures: docs/benchmarks.md is left as it was");
      return;
    }
    recordSummary(
      "webhook",
      stats
        .filter((s) => s.t !== measurementTarget)
        .map((s) => ({
          scenario: `webhook, ${SENDERS} senders, /catalog from new users`,
          subject: s.t.name,
          rate: s.rate,
          unit: "updates/s",
          p50: s.p50,
          p99: s.p99,
          ratio: s.rate / plainStats.rate,
          ratioAgainst: "plain grammY bot",
        })),
    );
    writeSection(
      "webhook",
      webhookSection({
        cellMs: CELL_MS,
        rounds: ROUNDS,
        warmupMs: WARMUP_MS,
        profileMs: PROFILE_MS,
        main,
        targetLine: line,
        profile,
        counts,
      }),
    );
    console.log("wrote the bench:webhook section of docs/benchmarks.md");
  } finally {
    await bare.close();
    for (const child of children.reverse()) await child.close();
    admin.disconnect();
    await redisServer.dispose();
    await measurementRedis.dispose();
    await projectDb.drop();
    await plainDb.drop();
    await measurementDb.drop();
    if (failed) process.exitCode = 1;
  }
}

await main();
