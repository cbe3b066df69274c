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
import { parseArgs } from "node:util";
import { parseBotConfig } from "@orderbot/bot";
import { seedCatalog } from "@orderbot/db";
import { createRedis } from "@orderbot/platform";
import {
  createTestDatabase,
  environmentLine,
  formatMs,
  formatRate,
  formatTable,
  markdownTable,
  packageVersion,
  percentile,
  prepareTemplateDatabase,
  recordSummary,
  Samples,
  startRedisServer,
  writeSection,
  type Cell,
} from "@orderbot/testkit";
import { installedVersion } from "./installed-version.ts";
import type { ProfileShare } from "./profile/cpu-profile.ts";
import { commandStats, deltaOf, type RedisCounts, type SqlCounts } from "./profile/counters.ts";
import { startChild, type Child } from "./webhook/child.ts";
import type { CallReport } from "./webhook/fake-telegram-process.ts";

const { values: args } = parseArgs({
  options: { seconds: { type: "string" } },
  allowPositionals: false,
});
const CELL_MS = args.seconds
  ? Number(args.seconds) * 1000
  : Number(process.env.BENCH_CELL_MS ?? 4000);
if (!Number.isFinite(CELL_MS) || CELL_MS < 1000)
  throw new Error("--seconds must be a number, at least 1");
const ROUNDS = 4;
const WARMUP_MS = 500;
const PROFILE_MS = Math.min(2000, CELL_MS / 2);
const SENDERS = 32;
const WEBHOOK_SECRET = "bench-webhook-secret_0123456789abcdef";
/** Users opened per bot: enough for this many updates per second over its whole run. */
const POOL_RATE = Number(process.env.BENCH_POOL_RATE ?? 4000);
const TARGET_RATE = 0.7;
const TARGET_P99 = 1.5;
const MEASUREMENT_NAME =
  "MEASUREMENT: the project's bot, update record, update lock and rate limit answered in-process";
const HERE = import.meta.dirname;

interface Mark {
  cpuMs: number;
  sql: SqlCounts;
  redis: RedisCounts;
}

interface BotTarget {
  kind: "bot";
  name: string;
  url: string;
  child: Child;
  /** The users of this target's pool, each used once. */
  nextUser: number;
  lastUser: number;
  samples: Samples;
  elapsedMs: number;
  /** Webhook answers other than 200 during measured rounds. */
  webhookFailures: Record<string, number>;
  exhausted: boolean;
  /** Updates answered 200 in the measured rounds, those still in flight at a round's end included. */
  handled: number;
  cpuMs: number;
  statements: number;
  commits: number;
  sqlByKind: Record<string, number>;
  redisCommands: number;
  redisByName: Record<string, number>;
  /** Bot API failures in every phase (warm-up and profile included). */
  apiFailures: Record<string, number>;
  /** Bot API calls in the measured rounds. */
  apiCalls: number;
  profile?: { totalMs: number; shares: ProfileShare[]; updates: number };
}

interface RouteTarget {
  kind: "route";
  name: string;
  url: string;
  nextUser: number;
  lastUser: number;
  samples: Samples;
  elapsedMs: number;
  webhookFailures: Record<string, number>;
  exhausted: boolean;
}

type Target = BotTarget | RouteTarget;

let nextUpdateId = 1;

function catalogUpdate(userId: number) {
  return {
    update_id: nextUpdateId++,
    message: {
      message_id: 2,
      date: Math.floor(Date.now() / 1000),
      chat: { id: userId, type: "private", first_name: "Bench" },
      from: { id: userId, is_bot: false, first_name: "Bench", language_code: "en" },
      text: "/catalog",
      entities: [{ type: "bot_command", offset: 0, length: 8 }],
    },
  };
}

const add = (into: Record<string, number>, from: Record<string, number>) => {
  for (const [key, n] of Object.entries(from)) into[key] = (into[key] ?? 0) + n;
};

/** SENDERS loops for `ms`; returns how many updates were answered 200. */
async function drive(target: Target, ms: number, record: boolean): Promise<number> {
  let stop = false;
  let answered = 0;
  const sender = async () => {
    while (!stop) {
      if (target.nextUser > target.lastUser) {
        target.exhausted = true;
        return;
      }
      const body = JSON.stringify(catalogUpdate(target.nextUser++));
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
      if (response.status === 200) answered++;
      if (!record || stop) continue;
      if (response.status === 200) target.samples.add(performance.now() - started);
      else {
        const key = `webhook answered ${response.status}`;
        target.webhookFailures[key] = (target.webhookFailures[key] ?? 0) + 1;
      }
    }
  };
  const started = performance.now();
  const senders = Array.from({ length: SENDERS }, sender);
  await new Promise((resolve) => setTimeout(resolve, ms));
  stop = true;
  if (record) target.elapsedMs += performance.now() - started;
  await Promise.all(senders);
  return answered;
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
  let apiSeq = 0;
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
    const common = {
      BENCH_BOT_TOKEN: fake.ready.token,
      BENCH_API_ROOT: fake.ready.apiRoot,
      BENCH_WEBHOOK_SECRET: WEBHOOK_SECRET,
    };
    const project = await startChild<{ url: string }>(
      path.join(HERE, "webhook/project-bot-process.ts"),
      {
        ...common,
        BENCH_DATABASE_URL: projectDb.url,
        BENCH_REDIS_URL: redisServer.url,
      },
    );
    children.push(project.child);
    const measurement = await startChild<{ url: string }>(
      path.join(HERE, "webhook/project-bot-process.ts"),
      {
        ...common,
        BENCH_DATABASE_URL: measurementDb.url,
        BENCH_REDIS_URL: measurementRedis.url,
        BENCH_WITHOUT_SAFETY: "1",
      },
    );
    children.push(measurement.child);
    // The plain bot gets the same pool size as the project's bot (its DATABASE_POOL_MAX default).
    const poolMax = parseBotConfig({
      NODE_ENV: "test",
      BOT_TOKEN: fake.ready.token,
      DATABASE_URL: projectDb.url,
      REDIS_URL: redisServer.url,
      LOCK_HASH_KEY: "bench-hash-key-0123456789",
    }).DATABASE_POOL_MAX;
    const plain = await startChild<{ url: string }>(path.join(HERE, "baseline/plain-bot.ts"), {
      ...common,
      BENCH_DATABASE_URL: plainDb.url,
      BENCH_POOL_MAX: String(poolMax),
      BENCH_BOT_INFO: JSON.stringify(fake.ready.botInfo),
    });
    children.push(plain.child);
    bare.post("/telegram/webhook", async () => ({ ok: true }));
    await bare.listen({ port: 0, host: "127.0.0.1" });
    const barePort = (bare.server.address() as AddressInfo).port;

    const botTarget = (name: string, url: string, child: Child, from: number): BotTarget => ({
      kind: "bot",
      name,
      url,
      child,
      nextUser: from,
      lastUser: from + perTarget - 1,
      samples: new Samples(),
      elapsedMs: 0,
      webhookFailures: {},
      exhausted: false,
      handled: 0,
      cpuMs: 0,
      statements: 0,
      commits: 0,
      sqlByKind: {},
      redisCommands: 0,
      redisByName: {},
      apiFailures: {},
      apiCalls: 0,
    });
    const projectTarget = botTarget(
      "the project's bot webhook",
      project.ready.url,
      project.child,
      firstUser,
    );
    const plainTarget = botTarget(
      "BASELINE: plain grammY bot (webhookCallback on Fastify)",
      plain.ready.url,
      plain.child,
      firstUser + perTarget,
    );
    const measurementTarget = botTarget(
      MEASUREMENT_NAME,
      measurement.ready.url,
      measurement.child,
      firstUser + 2 * perTarget,
    );
    const routeTarget: RouteTarget = {
      kind: "route",
      name: "bare Fastify route (200)",
      url: `http://127.0.0.1:${barePort}/telegram/webhook`,
      nextUser: 9_000_000_001,
      lastUser: Number.MAX_SAFE_INTEGER,
      samples: new Samples(),
      elapsedMs: 0,
      webhookFailures: {},
      exhausted: false,
    };
    const targets: Target[] = [projectTarget, plainTarget, measurementTarget, routeTarget];

    /** The Bot API calls since the last look, charged to `target`. */
    const collectCalls = async (target: BotTarget | undefined, measured = false) => {
      const report = await fake.child.request<CallReport>("calls", { since: apiSeq });
      apiSeq = report.seq;
      if (!target) return;
      if (measured) target.apiCalls += report.calls;
      add(target.apiFailures, report.failures);
    };
    await collectCalls(undefined); // the bots' start-up calls (getMe, setWebhook, commands)

    for (const target of targets) {
      await drive(target, WARMUP_MS, false);
      await collectCalls(target.kind === "bot" ? target : undefined);
    }
    const statsBefore = await commandStats(admin);
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < targets.length; i++) {
        const target = targets[(i + round) % targets.length]!;
        if (target.kind === "route") {
          await drive(target, CELL_MS / ROUNDS, true);
          continue;
        }
        const before = await target.child.request<Mark>("mark");
        target.handled += await drive(target, CELL_MS / ROUNDS, true);
        const after = await target.child.request<Mark>("mark");
        target.cpuMs += after.cpuMs - before.cpuMs;
        target.statements += after.sql.statements - before.sql.statements;
        target.commits += after.sql.commits - before.sql.commits;
        add(target.sqlByKind, deltaOf(before.sql.byKind, after.sql.byKind));
        target.redisCommands += after.redis.commands - before.redis.commands;
        add(target.redisByName, deltaOf(before.redis.byName, after.redis.byName));
        await collectCalls(target, true);
      }
    }
    // The measurement row is only what it says if none of the machinery ran in it.
    const sent = { ...measurementTarget.sqlByKind, ...measurementTarget.redisByName };
    for (const [kind, n] of Object.entries(sent))
      if (kind.includes("processed_updates") || kind === "evalsha")
        measurementTarget.webhookFailures[`its safety machinery still ran: ${kind}`] = n;
    const serverCommands = deltaOf(statsBefore, await commandStats(admin));
    delete serverCommands.info;

    // One short phase per bot under the CPU profiler, after the measured rounds.
    for (const target of [projectTarget, plainTarget]) {
      await target.child.request("profile:start");
      const updates = await drive(target, PROFILE_MS, false);
      const profile = await target.child.request<{ totalMs: number; shares: ProfileShare[] }>(
        "profile:stop",
      );
      target.profile = { ...profile, updates };
      await collectCalls(target);
    }
    const processed = await projectDb.db.processedUpdate.count();
    console.log(`updates recorded as processed by the project's bot: ${processed}`);

    // ----------------------------------------------------------------- the report
    const rateOf = (t: Target) => (t.samples.length / t.elapsedMs) * 1000;
    const stats = targets.map((t) => {
      const sorted = t.samples.sorted();
      return { t, rate: rateOf(t), p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
    });
    const [projectStats, plainStats, measurementStats] = stats as [
      (typeof stats)[0],
      (typeof stats)[0],
      (typeof stats)[0],
    ];
    const perUpdate = (t: BotTarget, n: number) =>
      t.handled > 0 ? (n / t.handled).toFixed(2) : "-";
    const failuresOf = (t: Target): Record<string, number> => ({
      ...t.webhookFailures,
      ...(t.kind === "bot" ? t.apiFailures : {}),
      ...(t.exhausted ? { "user pool exhausted (raise BENCH_POOL_RATE)": 1 } : {}),
    });
    const failureCount = (t: Target) => Object.values(failuresOf(t)).reduce((a, b) => a + b, 0);

    const header = [
      "target",
      "updates/s",
      "p50",
      "p99",
      "CPU per update",
      "SQL statements",
      "commits",
      "Redis commands",
      "failures",
    ];
    const rows: Cell[][] = stats.map(({ t, rate, p50, p99 }) => [
      t.name,
      formatRate(rate),
      formatMs(p50),
      formatMs(p99),
      t.kind === "bot" && t.handled > 0 ? `${(t.cpuMs / t.handled).toFixed(2)} ms` : "-",
      t.kind === "bot" ? perUpdate(t, t.statements) : "-",
      t.kind === "bot" ? perUpdate(t, t.commits) : "-",
      t.kind === "bot" ? perUpdate(t, t.redisCommands) : "-",
      failureCount(t),
    ]);
    const rateRatio = projectStats.rate / plainStats.rate;
    const p99Ratio = projectStats.p99 / plainStats.p99;
    const verdict = (ok: boolean) => (ok ? "MET" : "MISSED");
    const targetLine =
      `The project's bot against the baseline: ${rateRatio.toFixed(2)}x its rate, ${p99Ratio.toFixed(2)}x its p99. ` +
      `Target ${TARGET_RATE}x rate: ${verdict(rateRatio >= TARGET_RATE)}; ` +
      `p99 <= ${TARGET_P99}x: ${verdict(p99Ratio <= TARGET_P99)}. ` +
      `Its safety machinery answered in-process (the measurement row): ` +
      `${(measurementStats.rate / plainStats.rate).toFixed(2)}x the baseline's rate, ` +
      `${(measurementStats.p99 / plainStats.p99).toFixed(2)}x its p99; ` +
      `the machinery costs the bot ${(100 * (1 - projectStats.rate / measurementStats.rate)).toFixed(0)} % of its rate.`;

    const bots = [projectTarget, plainTarget];
    const profileNames = [
      ...new Set(bots.flatMap((b) => (b.profile?.shares ?? []).map((s) => s.name))),
    ];
    const profileHeader = [
      "where (module of the function on the CPU)",
      ...bots.flatMap((b) => [
        `${b === projectTarget ? "project" : "baseline"} ms/update`,
        "share",
      ]),
    ];
    const profileRows: Cell[][] = profileNames.map((name) => [
      name,
      ...bots.flatMap((b) => {
        const share = b.profile?.shares.find((s) => s.name === name);
        if (!share || !b.profile || b.profile.updates === 0) return ["-", "-"];
        return [(share.ms / b.profile.updates).toFixed(3), `${(share.share * 100).toFixed(1)} %`];
      }),
    ]);
    profileRows.push([
      "total sampled",
      ...bots.flatMap((b) =>
        b.profile && b.profile.updates > 0
          ? [(b.profile.totalMs / b.profile.updates).toFixed(3), "100 %"]
          : ["-", "-"],
      ),
    ]);

    const countsHeader = ["per update", "project", "baseline"];
    const keys = (pick: (b: BotTarget) => Record<string, number>) =>
      [...new Set(bots.flatMap((b) => Object.keys(pick(b))))].sort();
    const countRow = (
      label: string,
      pick: (b: BotTarget) => Record<string, number>,
      key: string,
    ) => [label, ...bots.map((b) => perUpdate(b, pick(b)[key] ?? 0))];
    const countRows: Cell[][] = [
      ...keys((b) => b.sqlByKind).map((k) => countRow(`SQL: ${k}`, (b) => b.sqlByKind, k)),
      ["SQL statements, all", ...bots.map((b) => perUpdate(b, b.statements))],
      [
        "commits (COMMIT, or a statement outside a transaction)",
        ...bots.map((b) => perUpdate(b, b.commits)),
      ],
      ...keys((b) => b.redisByName).map((k) =>
        countRow(`Redis sent: ${k}`, (b) => b.redisByName, k),
      ),
      ["Redis commands sent, all", ...bots.map((b) => perUpdate(b, b.redisCommands))],
      ...Object.keys(serverCommands)
        .sort()
        .map((k) => [`Redis server ran: ${k}`, perUpdate(projectTarget, serverCommands[k]!), "-"]),
      [
        "Redis server ran, all (scripts' own commands included)",
        perUpdate(
          projectTarget,
          Object.values(serverCommands).reduce((a, b) => a + b, 0),
        ),
        "-",
      ],
      ["Bot API calls", ...bots.map((b) => perUpdate(b, b.apiCalls))],
    ];

    console.log(`\n${formatTable(header, rows)}\n`);
    console.log(`${targetLine}\n`);
    console.log(`${formatTable(profileHeader, profileRows)}\n`);
    console.log(`${formatTable(countsHeader, countRows)}\n`);
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
      [
        "## Webhook: the project's bot against a plain grammY bot (`npm run bench -- webhook`)",
        "",
        environmentLine({
          fastify: packageVersion("fastify"),
          grammy: installedVersion("grammy"),
          "@prisma/client": packageVersion("@prisma/client"),
        }),
        "",
        `${SENDERS} concurrent senders POST \`/catalog\` updates, each from a user new to the bot, ${CELL_MS} ms per target in ${ROUNDS}`,
        `interleaved rounds after a ${WARMUP_MS} ms warm-up per target. Every user opened their chat with the fake Bot API first, so`,
        "every reply is delivered; any Bot API answer that is not a success, or webhook answer that is not 200, fails the run.",
        "The fake Bot API and each bot run in processes of their own; the senders and the bare route in the bench's.",
        "The baseline (tests/bench/baseline/plain-bot.ts) is grammY's `webhookCallback` on Fastify running the same catalog",
        "queries and `ctx.reply`, with no dedupe, lock, rate limit or i18n. CPU per update is the bot process's own; SQL",
        "statements, commits and Redis commands are counted in the bot process (pg and ioredis clients).",
        "The MEASUREMENT row is not an option of the bot: the same app and process with the update pipeline's safety",
        "machinery answered in-process instead of sent (no update record read or written, no update lock, every update",
        "admitted by the rate limit; tests/bench/webhook/project-bot-process.ts, BENCH_WITHOUT_SAFETY). What it gains over",
        "the project's bot is what that machinery costs; how far it stays from the baseline is the shop's own /catalog",
        "(the customer's first-contact record and language, the cart's count on the catalog's button, i18n, grammY's",
        "feature chain).",
        "",
        markdownTable(header, rows),
        "",
        targetLine,
        "",
        `Where one update's CPU goes (a separate ${PROFILE_MS} ms phase per bot under node:inspector's CPU profiler, sampling`,
        "every 200 µs; a sample counts for the innermost frame whose module has a row, node's own frames for their caller).",
        "The dedupe, lock and rate limit rows are their own JavaScript only: the statements and commands they send are in the",
        "Prisma, pg and Redis client rows, and the counts below say which part sends how many.",
        "",
        markdownTable(profileHeader, profileRows),
        "",
        'Counts per update, measured rounds only ("Redis server ran": INFO commandstats of the bench\'s own redis-server,',
        "which only the project's bot uses):",
        "",
        markdownTable(countsHeader, countRows),
      ].join("\n"),
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
