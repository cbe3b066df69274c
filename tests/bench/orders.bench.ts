// npm run bench -- orders — placeOrder throughput and latency on real PostgreSQL and Redis, as the shop
// does it (a per-user `checkout` lock taken without waiting, then one short transaction with
// conditional updates) beside the naive design that serialises every order under one global lock.
//
//   hot:    every order is for the same sku (a flash sale)
//   spread: each order picks one of 1,000 skus at random
//
// Both designs run the same transaction (reserveOrder) on the same database in the same run; only
// the lock around it differs. Beside them, in the same run, the physical floor of this machine: the
// same reservation as one SQL function call (orders/floor.sql) through a bare `pg` pool, with no
// lock, no Prisma and no checks beyond the database's own; every design's rate is also given as a
// ratio of it, and the targets of issue #23 are printed MET or MISSED. The stack's floor makes the
// floor's call through Prisma under the per-user checkout lock: what no design on this project's
// stack can beat, so the bound on the "0.5x the floor" target, measured.
// The cost of one order, per design: SQL statements and commits (counted in the pg client), Redis
// commands (sent, and run by the server including those inside scripts: INFO commandstats), CPU
// in this process and in PostgreSQL's backends (/proc), and, from a short CPU-profiled phase
// after the measured rounds, the share of this process's CPU spent in Prisma's client. Each order comes from a new user, so neither the open-order cap nor
// a double tap plays a part. Clients are spread over INSTANCES shops, each with its own PostgreSQL
// pool, Redis connection and lock manager, as separate bot replicas would have.
// PostgreSQL is the project's (a fresh database cloned from the migrated template); Redis is a
// redis-server of the benchmark's own. Results: printed, and written to docs/benchmarks.md between
// the bench:orders markers.
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { Database } from "@orderbot/db";
import { createRedis } from "@orderbot/platform";
import {
  cellTime,
  createTestDatabase,
  environmentLine,
  formatMs,
  formatRate,
  formatTable,
  installedVersion,
  interleave,
  IOREDIS,
  packageVersion,
  PG,
  PRISMA,
  prepareTemplateDatabase,
  PROJECT_ROOT,
  recordSummary,
  startCpuProfile,
  startRedisServer,
  writeSection,
  type Category,
  type SummaryRow,
} from "@orderbot/testkit";
import { costedRound, newCell, runRound, summarise, type Cell } from "./orders/cells.ts";
import {
  closeInstance,
  designs,
  GLOBAL,
  POOL_MAX,
  PROJECT,
  startUncappedInstance,
  type Instance,
} from "./orders/designs.ts";
import { installFloor } from "./orders/floor.ts";
import { ordersSection } from "./orders/section.ts";
import { costTable, finder, resultsTable, statementTable, targets } from "./orders/tables.ts";
import { countSqlStatements } from "./profile/counters.ts";
import { enableStatementTimes } from "./profile/pg-statements.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Measured time per round of a cell; --seconds N: N seconds per cell over all its rounds. */
const CELL_MS = Math.round(cellTime(2500 * ROUNDS, 100 * ROUNDS) / ROUNDS);
/** The CPU-profiled phase per cell, after the measured rounds. */
const PROFILE_MS = Math.min(1000, CELL_MS);
const WARMUP_MS = 500;
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 32);
const INSTANCES = 2;
const SPREAD_SKUS = 1_000;

const LOCK_CATEGORY: Category = {
  name: "lock (@orderbot/lock)",
  match: (url) => url.includes("/packages/lock/src/"),
};
const CORE_CATEGORY: Category = {
  name: "the shop's code (packages/core, db, platform)",
  match: (url) =>
    ["/packages/core/src/", "/packages/db/src/", "/packages/platform/src/"].some((p) =>
      url.includes(p),
    ),
};

/** Bare `SELECT 1` round trips per second from one client: how fast this machine is right now. */
async function calibrate(db: Database): Promise<number> {
  let n = 0;
  const end = performance.now() + 1_000;
  while (performance.now() < end) {
    await db.$queryRaw`SELECT 1`;
    n++;
  }
  return n;
}

async function seedProducts(db: Database): Promise<{ hot: string; spread: string[] }> {
  const stock = 10_000_000; // never sells out during a run
  await db.$executeRaw`
    INSERT INTO products (sku, title_en, title_zh, price_minor, currency, stock, updated_at)
    SELECT 'SKU-' || n, 'Item ' || n, '商品 ' || n, 10 + n % 90, 'XTR', ${stock}, now()
    FROM generate_series(0, ${SPREAD_SKUS}) AS n`;
  await db.$executeRaw`
    INSERT INTO stock_movements (product_id, batch_id, delta, reason, actor)
    SELECT id, 'seed', stock, 'SEED', 'seed' FROM products`;
  return {
    hot: `SKU-${SPREAD_SKUS}`,
    spread: Array.from({ length: SPREAD_SKUS }, (_, n) => `SKU-${n}`),
  };
}

/** The stock and the ledger agree, and no stock went below zero: every design kept the books. */
async function checkBooks(db: Database): Promise<string[]> {
  const rows = await db.$queryRaw<{ sku: string; stock: number; ledger: number }[]>`
    SELECT p.sku, p.stock, coalesce(sum(m.delta), 0)::int AS ledger
    FROM products p LEFT JOIN stock_movements m ON m.product_id = p.id
    GROUP BY p.id HAVING p.stock <> coalesce(sum(m.delta), 0) OR p.stock < 0`;
  return rows.map((r) => `${r.sku}: stock ${r.stock}, ledger ${r.ledger}`);
}

/** The measured rounds (interleaved), then a short phase per cell under the CPU profiler. */
async function measure(
  instances: Instance[],
  cells: Cell[],
  admin: Parameters<typeof costedRound>[3],
) {
  const plan = { clients: CLIENTS, warmupMs: WARMUP_MS, ms: CELL_MS };
  await interleave(cells, ROUNDS, (cell) => costedRound(instances, cell, plan, admin), {
    afterRound: (round) => console.log(`round ${round}/${ROUNDS} done`),
  });
  // The profiler slows the process: its phase is never measured.
  for (const cell of cells) {
    const profiler = await startCpuProfile([PRISMA, PG, IOREDIS, LOCK_CATEGORY, CORE_CATEGORY]);
    await runRound(instances, cell, { clients: CLIENTS, warmupMs: 0, ms: PROFILE_MS }, false);
    const { shares } = await profiler.stop();
    cell.prismaShare = shares.find((s) => s.name === PRISMA.name)?.share ?? 0;
  }
}

function headline(results: ReturnType<typeof summarise>[]): SummaryRow[] {
  const find = finder(results);
  return results
    .filter((r) => r.design === PROJECT)
    .map((r) => ({
      scenario: `placeOrder, ${r.scenario}`,
      subject: "per-user checkout lock",
      rate: r.rate,
      unit: "orders/s",
      p50: r.p50,
      p99: r.p99,
      ratio: r.rate / find(r.scenario, GLOBAL).rate,
      ratioAgainst: "one global lock",
    }));
}

async function main(): Promise<void> {
  const loadBefore = os.loadavg()[0]!;
  await prepareTemplateDatabase();
  const testDb = await createTestDatabase();
  const server = await startRedisServer();
  const instances: Instance[] = [];
  await installFloor(testDb.url);
  countSqlStatements();
  const admin = new pg.Client({ connectionString: testDb.url });
  await admin.connect();
  const redisAdmin = createRedis({ url: server.url, commandTimeoutMs: 2_000 });
  try {
    for (let i = 0; i < INSTANCES; i++)
      instances.push(await startUncappedInstance(testDb.url, server.url));
    const { hot, spread } = await seedProducts(instances[0]!.db);
    const roundTrips = await calibrate(instances[0]!.db);
    const statStatements = await enableStatementTimes(admin);

    const scenarios = {
      hot: "hot: one sku",
      spread: `spread: ${SPREAD_SKUS.toLocaleString("en-US")} skus`,
    };
    const pickers: [string, () => string][] = [
      [scenarios.hot, () => hot],
      [scenarios.spread, () => spread[Math.floor(Math.random() * spread.length)]!],
    ];
    const cells = pickers.flatMap(([scenario, pick]) =>
      designs.map((design) => newCell(scenario, design, pick)),
    );
    await measure(instances, cells, {
      pg: admin,
      redis: redisAdmin,
      statementTimes: statStatements,
    });
    const books = await checkBooks(instances[0]!.db);
    const results = cells.map(summarise);
    for (const r of results) {
      console.log(
        `${r.scenario} | ${r.design}: ${formatRate(r.rate)}, p50 ${formatMs(r.p50)}, p99 ${formatMs(r.p99)}`,
      );
    }
    const tables = {
      results: resultsTable(results),
      cost: costTable(results),
      statements: statStatements ? statementTable(cells) : null,
    };
    for (const table of [tables.results, tables.cost, tables.statements])
      if (table) console.log(`\n${formatTable(table.header, table.rows)}`);
    const goals = targets(results, scenarios.hot, scenarios.spread);
    console.log(
      `\nTargets (issue #23, the shop's design, this run):\n${goals.map((t) => `  ${t}`).join("\n")}`,
    );
    if (books.length > 0) {
      console.log(`FAILURE: stock and ledger disagree after the run:\n  ${books.join("\n  ")}`);
      process.exitCode = 1;
      return;
    }

    const env = environmentLine({
      "@prisma/client": packageVersion("@prisma/client"),
      "@prisma/adapter-pg": installedVersion("@prisma/adapter-pg"),
      pg: packageVersion("pg"),
      ioredis: packageVersion("ioredis", path.join(PROJECT_ROOT, "packages/lock")),
    });
    const [pgVersion] = await instances[0]!.db.$queryRaw<
      { v: string }[]
    >`SELECT current_setting('server_version') AS v`;
    writeSection(
      "orders",
      ordersSection({
        env,
        pgVersion: pgVersion?.v ?? "?",
        loadBefore,
        roundTrips: formatRate(roundTrips),
        clients: CLIENTS,
        instances: INSTANCES,
        poolMax: POOL_MAX,
        rounds: ROUNDS,
        roundMs: CELL_MS,
        warmupMs: WARMUP_MS,
        profileMs: PROFILE_MS,
        spreadSkus: SPREAD_SKUS,
        scenarios,
        results,
        tables,
        targets: goals,
      }),
    );
    recordSummary("orders", headline(results));
    console.log("\nwritten to docs/benchmarks.md (bench:orders)");
  } finally {
    for (const instance of instances) await closeInstance(instance);
    redisAdmin.disconnect();
    await admin.end();
    await server.dispose();
    await testDb.drop();
  }
}

await main();
