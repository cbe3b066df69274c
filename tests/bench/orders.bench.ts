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
import { parseArgs } from "node:util";
import pg from "pg";
import { createDatabase, type Database } from "@orderbot/db";
import {
  circuitBreaker,
  createLockManager,
  fairWaiting,
  lockMetrics,
  outagePolicies,
  type LockManager,
} from "@orderbot/lock";
import { createRedis, Registry, waitForRedis, type Redis } from "@orderbot/platform";
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
  PROJECT_ROOT,
  recordSummary,
  Samples,
  startRedisServer,
  writeSection,
  type SummaryRow,
} from "@orderbot/testkit";
import {
  createShop,
  LOCK_KINDS,
  reserveOrder,
  type PlaceOrderResult,
  type Shop,
} from "@orderbot/core";
import { installedVersion } from "./installed-version.ts";
import { floorReserve, floorReserveThroughPrisma, installFloor } from "./orders/floor.ts";
import { IOREDIS, PG, PRISMA, startCpuProfile, type Category } from "./profile/cpu-profile.ts";
import {
  commandStats,
  countRedisCommands,
  countSqlStatements,
  deltaOf,
  redisCommandCounts,
  sqlCounts,
} from "./profile/counters.ts";
import { backendCpu, backendCpuDelta } from "./profile/pg-backends.ts";
import {
  addStatementTimes,
  emptyStatementTimes,
  enableStatementTimes,
  resetStatementTimes,
  type StatementTimes,
} from "./profile/pg-statements.ts";

const { values: args } = parseArgs({ options: { seconds: { type: "string" } } });

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Measured time per round of a cell; --seconds N: N seconds per cell over all its rounds. */
const CELL_MS = args.seconds
  ? Math.round((Number(args.seconds) * 1000) / ROUNDS)
  : Number(process.env.BENCH_CELL_MS ?? 2500);
if (!Number.isFinite(CELL_MS) || CELL_MS < 100)
  throw new Error("--seconds must be a number, at least 1");
/** The CPU-profiled phase per cell, after the measured rounds. */
const PROFILE_MS = Math.min(1000, CELL_MS);
/** Statements per scenario in the per-statement table; the rest are summed in one row. */
const STATEMENT_ROWS = 6;
const WARMUP_MS = 500;
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 32);
const INSTANCES = 2;
const POOL_MAX = 16;
const SPREAD_SKUS = 1_000;
const MASK_KEY = "bench-mask-key-0123456789";

interface Instance {
  shop: Shop;
  db: Database;
  redis: Redis;
  locks: LockManager;
  /** A bare pg pool of the same size, for the floor. */
  floor: pg.Pool;
}

interface Design {
  name: string;
  place(instance: Instance, userId: bigint, sku: string): Promise<{ status: string }>;
}

const FLOOR = "floor: one SQL function call, bare pg, no lock";
const STACK_FLOOR = "the stack's floor: the floor's call through Prisma, under the checkout lock";

const designs: Design[] = [
  {
    name: "orderbot: per-user checkout lock + conditional update",
    place: (instance, userId, sku) =>
      instance.shop.orders.placeOrder({
        userId,
        chatId: userId,
        items: [{ sku, quantity: 1 }],
        idempotencyKey: `bench-${userId}`,
      }),
  },
  {
    name: "naive: one global lock around every order",
    async place(instance, userId, sku) {
      const input = {
        userId,
        chatId: userId,
        items: [{ sku, quantity: 1 }],
        idempotencyKey: `bench-${userId}`,
      };
      const outcome = await instance.locks.withLock(
        { kind: "global", id: "orders" },
        () => reserveOrder(instance.shop.deps, input),
        {
          waitMs: 60_000,
        },
      );
      return outcome.status === "ok"
        ? outcome.value
        : ({ status: outcome.status === "busy" ? "busy" : "unavailable" } as PlaceOrderResult);
    },
  },
  { name: FLOOR, place: (instance, userId, sku) => floorReserve(instance.floor, userId, sku) },
  {
    // What no design on this stack can beat: the least a reservation through Prisma under the
    // per-user checkout lock costs (one lock, one statement, one unlock). A measurement, not a
    // design: it checks nothing the floor does not.
    name: STACK_FLOOR,
    async place(instance, userId, sku) {
      const outcome = await instance.locks.withLock(
        { kind: "checkout", id: userId },
        () => floorReserveThroughPrisma(instance.db, userId, sku),
        { waitMs: 0 },
      );
      return outcome.status === "ok" ? outcome.value : { status: outcome.status };
    },
  },
];
const [PROJECT, GLOBAL] = designs.map((d) => d.name) as [string, string];

interface CellResult {
  scenario: string;
  design: string;
  ok: number;
  rate: number;
  p50: number;
  p99: number;
  max: number;
  other: string;
  cost: Cost;
  prismaShare: number | undefined;
}

/** What a cell's orders cost, summed over its rounds (warm-ups included), and how many orders. */
interface Cost {
  orders: number;
  statements: number;
  commits: number;
  redisSent: number;
  redisRan: number;
  nodeCpuMs: number;
  pgCpuMs: number;
}

/** One (scenario, design) cell, accumulated over the interleaved rounds. */
interface Cell {
  scenario: string;
  design: Design;
  pickSku: () => string;
  samples: Samples;
  outcomes: Map<string, number>;
  measuredMs: number;
  cost: Cost;
  /** PostgreSQL's execution time per statement (pg_stat_statements), over the measured rounds. */
  statementTimes: StatementTimes;
  prismaShare?: number;
}

let nextUser = 8_000_000_000n;

/**
 * One round of a cell: CLIENTS loops for `warmupMs` + `ms`, measuring calls that fall inside
 * (when `cell.samples` should record). Returns the orders completed in the whole round.
 */
async function runRound(
  instances: Instance[],
  cell: Cell,
  warmupMs: number,
  ms: number,
  record: boolean,
): Promise<number> {
  const measureFrom = performance.now() + warmupMs;
  const end = measureFrom + ms;
  let completed = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      const instance = instances[client % instances.length]!;
      while (performance.now() < end) {
        const userId = nextUser++;
        const t0 = performance.now();
        const result = await cell.design.place(instance, userId, cell.pickSku());
        const t1 = performance.now();
        if (result.status === "ok") completed++;
        if (!record || t0 < measureFrom || t1 > end) continue;
        cell.samples.add(t1 - t0);
        cell.outcomes.set(result.status, (cell.outcomes.get(result.status) ?? 0) + 1);
      }
    }),
  );
  if (record) cell.measuredMs += ms;
  return completed;
}

/** A round with its cost measured: statements, Redis commands, CPU here and in PostgreSQL. */
async function costedRound(
  instances: Instance[],
  cell: Cell,
  admin: pg.Client,
  redisAdmin: Redis,
  statementTimes: boolean,
): Promise<void> {
  if (statementTimes) await resetStatementTimes(admin);
  const pgBefore = await backendCpu(admin);
  const ranBefore = await commandStats(redisAdmin);
  const sqlBefore = sqlCounts();
  const sentBefore = redisCommandCounts().commands;
  const cpuBefore = process.cpuUsage();
  const orders = await runRound(instances, cell, WARMUP_MS, CELL_MS, true);
  const cpu = process.cpuUsage(cpuBefore);
  const sqlAfter = sqlCounts();
  const sent = redisCommandCounts().commands - sentBefore;
  const ran = deltaOf(ranBefore, await commandStats(redisAdmin));
  delete ran.info;
  const pgCpu = backendCpuDelta(pgBefore, await backendCpu(admin));
  if (statementTimes) await addStatementTimes(admin, cell.statementTimes);
  const c = cell.cost;
  c.orders += orders;
  c.statements += sqlAfter.statements - sqlBefore.statements;
  c.commits += sqlAfter.commits - sqlBefore.commits;
  c.redisSent += sent;
  c.redisRan += Object.values(ran).reduce((a, b) => a + b, 0);
  c.nodeCpuMs += (cpu.user + cpu.system) / 1000;
  c.pgCpuMs += pgCpu;
}

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

function summarise(cell: Cell): CellResult {
  const sorted = cell.samples.sorted();
  const outcomes = new Map(cell.outcomes);
  const ok = outcomes.get("ok") ?? 0;
  outcomes.delete("ok");
  return {
    scenario: cell.scenario,
    design: cell.design.name,
    ok,
    rate: ok / (cell.measuredMs / 1000),
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: percentile(sorted, 100),
    other: [...outcomes].map(([status, n]) => `${status} ${n}`).join(", ") || "none",
    cost: cell.cost,
    prismaShare: cell.prismaShare,
  };
}

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
    for (let i = 0; i < INSTANCES; i++) {
      const db = createDatabase({ url: testDb.url, poolMax: POOL_MAX, connectTimeoutMs: 30_000 });
      const redis = createRedis({ url: server.url, commandTimeoutMs: 2_000 });
      await waitForRedis(redis);
      countRedisCommands(redis);
      const registry = new Registry();
      const locks = createLockManager({
        redis,
        namespace: "bench:orders",
        hashKey: MASK_KEY,
        layers: {
          waiting: fairWaiting(),
          breaker: circuitBreaker(),
          outage: outagePolicies(),
          metrics: lockMetrics(registry),
        },
        kinds: { ...LOCK_KINDS, global: { ttlMs: 10_000, waitMs: 60_000, outage: "refuse" } },
      });
      // Reservations never expire during a run; the pool wait is generous, since the point is the
      // locks' cost, not load shedding.
      const shop = createShop({
        db,
        locks,
        registry,
        config: { maskKey: MASK_KEY, maxOpenOrders: 1_000, transactionMaxWaitMs: 30_000 },
      });
      const floor = new pg.Pool({ connectionString: testDb.url, max: POOL_MAX });
      instances.push({ shop, db, redis, locks, floor });
    }
    const { hot, spread } = await seedProducts(instances[0]!.db);
    const roundTrips = await calibrate(instances[0]!.db);
    const statStatements = await enableStatementTimes(admin);

    const scenarios: [string, () => string][] = [
      ["hot: one sku", () => hot],
      [
        `spread: ${SPREAD_SKUS.toLocaleString("en-US")} skus`,
        () => spread[Math.floor(Math.random() * spread.length)]!,
      ],
    ];
    const cells: Cell[] = scenarios.flatMap(([scenario, pickSku]) =>
      designs.map((design) => ({
        scenario,
        design,
        pickSku,
        samples: new Samples(),
        outcomes: new Map(),
        measuredMs: 0,
        cost: {
          orders: 0,
          statements: 0,
          commits: 0,
          redisSent: 0,
          redisRan: 0,
          nodeCpuMs: 0,
          pgCpuMs: 0,
        },
        statementTimes: emptyStatementTimes(),
      })),
    );
    // Rounds interleave the cells, so that other work on the machine weighs on every cell alike.
    for (let round = 1; round <= ROUNDS; round++) {
      for (const cell of cells)
        await costedRound(instances, cell, admin, redisAdmin, statStatements);
      console.log(`round ${round}/${ROUNDS} done`);
    }
    // Then a short phase per cell under the CPU profiler (it slows the process: never measured).
    for (const cell of cells) {
      const profiler = await startCpuProfile([PRISMA, PG, IOREDIS, LOCK_CATEGORY, CORE_CATEGORY]);
      await runRound(instances, cell, 0, PROFILE_MS, false);
      const { shares } = await profiler.stop();
      cell.prismaShare = shares.find((s) => s.name === PRISMA.name)?.share ?? 0;
    }
    const books = await checkBooks(instances[0]!.db);
    const results = cells.map(summarise);
    for (const r of results) {
      console.log(
        `${r.scenario} | ${r.design}: ${formatRate(r.rate)}, p50 ${formatMs(r.p50)}, p99 ${formatMs(r.p99)}`,
      );
    }

    const find = (scenario: string, design: string) =>
      results.find((b) => b.scenario === scenario && b.design === design)!;
    const x = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
    const header = [
      "scenario",
      "design",
      "orders",
      "p50",
      "p99",
      "max",
      "vs global lock",
      "vs floor",
      "other outcomes",
    ];
    const rows = results.map((r) => [
      r.scenario,
      r.design,
      formatRate(r.rate),
      formatMs(r.p50),
      formatMs(r.p99),
      formatMs(r.max),
      x(r.rate, find(r.scenario, GLOBAL).rate),
      x(r.rate, find(r.scenario, FLOOR).rate),
      r.other,
    ]);
    console.log(`\n${formatTable(header, rows)}`);

    const per = (n: number, orders: number, digits = 2) =>
      orders > 0 ? (n / orders).toFixed(digits) : "-";
    const costHeader = [
      "scenario",
      "design",
      "SQL statements",
      "commits",
      "Redis sent",
      "Redis ran",
      "CPU node ms",
      "CPU PostgreSQL ms",
      "PostgreSQL share",
      "Prisma share of node",
    ];
    const costRows = results.map((r) => {
      const c = r.cost;
      return [
        r.scenario,
        r.design,
        per(c.statements, c.orders),
        per(c.commits, c.orders),
        per(c.redisSent, c.orders),
        per(c.redisRan, c.orders),
        per(c.nodeCpuMs, c.orders, 3),
        per(c.pgCpuMs, c.orders, 3),
        c.nodeCpuMs + c.pgCpuMs > 0
          ? `${((100 * c.pgCpuMs) / (c.nodeCpuMs + c.pgCpuMs)).toFixed(0)} %`
          : "-",
        r.prismaShare === undefined ? "-" : `${(100 * r.prismaShare).toFixed(0)} %`,
      ];
    });
    console.log(`\n${formatTable(costHeader, costRows)}`);

    // The shop's design, statement by statement: where its PostgreSQL time goes.
    const statementHeader = [
      "scenario",
      "statement (pg_stat_statements, normalised)",
      "calls per order",
      "ms per order",
      "share",
    ];
    const statementRows = cells
      .filter((cell) => cell.design.name === PROJECT)
      .flatMap((cell) => {
        const orders = cell.cost.orders;
        const all = [...cell.statementTimes.byQuery].sort((a, b) => b[1].ms - a[1].ms);
        const total = all.reduce((sum, [, t]) => sum + t.ms, 0);
        const top = all.slice(0, STATEMENT_ROWS);
        const rest = all.slice(STATEMENT_ROWS);
        const row = (query: string, calls: number, ms: number) => [
          cell.scenario,
          query.length > 100 ? `${query.slice(0, 97)}...` : query,
          per(calls, orders),
          per(ms, orders, 3),
          total > 0 ? `${((100 * ms) / total).toFixed(0)} %` : "-",
        ];
        const rows = top.map(([query, t]) => row(query, t.calls, t.ms));
        if (rest.length > 0)
          rows.push(
            row(
              `(${rest.length} others)`,
              rest.reduce((sum, [, t]) => sum + t.calls, 0),
              rest.reduce((sum, [, t]) => sum + t.ms, 0),
            ),
          );
        rows.push(
          row(
            "all statements",
            all.reduce((sum, [, t]) => sum + t.calls, 0),
            total,
          ),
        );
        return rows;
      });
    if (statStatements) console.log(`\n${formatTable(statementHeader, statementRows)}`);

    const verdict = (ok: boolean) => (ok ? "MET" : "MISSED");
    const hotScenario = scenarios[0]![0];
    const spreadScenario = scenarios[1]![0];
    const hotP = find(hotScenario, PROJECT);
    const hotG = find(hotScenario, GLOBAL);
    const spreadP = find(spreadScenario, PROJECT);
    const spreadG = find(spreadScenario, GLOBAL);
    const spreadF = find(spreadScenario, FLOOR);
    const spreadS = find(spreadScenario, STACK_FLOOR);
    // The shop's design is bound by CPU, the global lock by its chain of round trips: what 2x the
    // global lock asks of this machine's cores, at the CPU (node and PostgreSQL) an order cost.
    const cores = os.cpus().length;
    const cpuPerOrder = (r: CellResult) => (r.cost.nodeCpuMs + r.cost.pgCpuMs) / r.cost.orders;
    const cpuBound = (p: CellResult, g: CellResult) => {
      const cpuMs = cpuPerOrder(p);
      const ceiling = (1000 * cores) / cpuMs;
      return (
        `; at ${cpuMs.toFixed(2)} ms of CPU per order ${cores} cores allow ${formatRate(ceiling)}, ` +
        `and 2x the global lock is ${((200 * g.rate) / ceiling).toFixed(0)} % of that`
      );
    };
    const targets = [
      `hot: >= 2x the global lock: ${verdict(hotP.rate >= 2 * hotG.rate)} (${x(hotP.rate, hotG.rate)}${cpuBound(hotP, hotG)})`,
      `hot: p99 <= the global lock's: ${verdict(hotP.p99 <= hotG.p99)} (${formatMs(hotP.p99)} vs ${formatMs(hotG.p99)})`,
      `spread: >= 2x the global lock: ${verdict(spreadP.rate >= 2 * spreadG.rate)} (${x(spreadP.rate, spreadG.rate)}${cpuBound(spreadP, spreadG)})`,
      `spread: >= 0.5x the floor: ${verdict(spreadP.rate >= 0.5 * spreadF.rate)} (${x(spreadP.rate, spreadF.rate)}; ` +
        `the stack's floor, its bound: ${x(spreadS.rate, spreadF.rate)}, the shop at ${x(spreadP.rate, spreadS.rate)} of it)`,
      `stretch, hot >= 0.8x spread: ${verdict(hotP.rate >= 0.8 * spreadP.rate)} (${x(hotP.rate, spreadP.rate)}; ` +
        `an order's CPU, spread over hot: ${x(cpuPerOrder(spreadP), cpuPerOrder(hotP))})`,
    ];
    console.log(
      `\nTargets (issue #23, the shop's design, this run):\n${targets.map((t) => `  ${t}`).join("\n")}`,
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
      `## placeOrder: per-user lock, one global lock and the floor (\`npm run bench -- orders\`)

${env}  
PostgreSQL ${pgVersion?.v ?? "?"} (the project's local cluster, fsync off), a redis-server of the benchmark's own  
Load average ${loadBefore.toFixed(1)} before the run; one client's bare \`SELECT 1\` round trips: ${formatRate(roundTrips)} (how fast the
machine was at the time: figures from different runs compare only through this)

${CLIENTS} concurrent clients over ${INSTANCES} shop instances (each its own pool of ${POOL_MAX} PostgreSQL connections, Redis
connection and lock manager); ${ROUNDS} interleaved rounds of ${CELL_MS} ms per cell, each after a ${WARMUP_MS} ms warm-up, all in one run. Every order is one
unit from a new user; "orders" counts reservations completed per second. The two designs run the same transaction
(\`reserveOrder\`: advisory lock per user, the order, its items and ledger rows in one statement, and at COMMIT each
line's conditional decrement by the schema's deferred trigger); only the lock around it differs. The floor is the same
reservation (order, item, ledger row, the trigger's decrement at its commit) as
one function call in autocommit (tests/bench/orders/floor.sql) through a bare \`pg\` pool of the same size per instance:
no lock, no Prisma, no check beyond the database's own. The stack's floor makes the same call through the shop's
Prisma client (\`$queryRaw\`) under the per-user checkout lock: the least any reservation on this project's fixed
stack (Prisma, a Redis lock per user) costs, and so the bound on how near the floor a design of the shop can come.
Latency is one call as the client sees it, waiting included.

${markdownTable(header, rows)}

Targets (issue #23, the shop's design against the others in this run):

${targets.map((t) => `- ${t}`).join("\n")}

The cost of one order, per design (each cell's rounds, warm-ups included, divided by the orders they completed):
SQL statements and commits counted in the pg client (BEGIN and COMMIT are statements; a statement outside a
transaction is a commit of its own); Redis commands sent by the ioredis connections, and run by the server (INFO
commandstats of the bench's own redis-server: the commands inside the lock's scripts included); CPU of this process
(the load loop included) and of the PostgreSQL backends serving the run's database (user + system time from /proc;
statement by statement in the next table); the share of this process's CPU
in Prisma's client (\`@prisma/*\` and the generated client), from a ${PROFILE_MS} ms phase per cell under node:inspector's CPU
profiler after the measured rounds.

${markdownTable(costHeader, costRows)}

${
  statStatements
    ? `Where the shop's design spends PostgreSQL's time, statement by statement (pg_stat_statements, top-level statements
of the run's database over the measured rounds; execution time is wall time in the executor, a lock wait included; a
COMMIT's time includes the deferred trigger that takes the order lines' stock):

${markdownTable(statementHeader, statementRows)}`
    : "pg_stat_statements is not loaded on this server (scripts/services preloads it when the server has it): no per-statement table."
}

Reading it: with one hot sku every reservation queues on the product's row, which each holds only while its COMMIT
runs (the line's decrement is a deferred trigger): here the per-user design ran at ${x(hotP.rate, hotG.rate)} the global lock's rate${hotP.p99 > hotG.p99 ? ", with a longer tail" : ""},
and at ${x(hotP.rate, spreadP.rate)} its own rate spread over ${SPREAD_SKUS.toLocaleString("en-US")} skus, where it ran at ${x(spreadP.rate, spreadG.rate)} the global lock's.
A global lock keeps the queue in Redis, but serialises every order with it, hot or not. The floor, one statement per
order, spends a fraction of the CPU: ${x(find(hotScenario, FLOOR).rate, hotG.rate)} the global lock's rate on the hot sku, where its many waiters on one row
cost it its tail. Neither lock buys any
correctness: the same transaction keeps stock, ledger, cap and idempotency right on its own (see
packages/core/test/orders/concurrency.test.ts, "without any Redis lock").`,
    );
    const summary: SummaryRow[] = results
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
    recordSummary("orders", summary);
    console.log("\nwritten to docs/benchmarks.md (bench:orders)");
  } finally {
    for (const instance of instances) {
      await instance.locks.close();
      instance.redis.disconnect();
      await instance.db.$disconnect();
      await instance.floor.end();
    }
    redisAdmin.disconnect();
    await admin.end();
    await server.dispose();
    await testDb.drop();
  }
}

await main();
