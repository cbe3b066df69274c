// npm run bench -- worker — how fast the worker expires due reservations, as real worker processes
// (`apps/worker/src/main.ts`), beside the floor: one raw SQL statement that does the same writes.
//
//   1 worker                   one process, batches of EXPIRE_BATCH_SIZE, each a short transaction
//   2 workers, leader mode     two processes; the `job` lock lets one expire at a time (the default)
//   2 workers, shared mode     two processes expiring side by side, kept apart by SKIP LOCKED
//   raw SQL, one statement     every due order, its stock, ledger rows and notices in one statement
//
// Each scenario gets a fresh database with ORDERS reservations across PRODUCTS products (inserted
// set-based), made due at once; the clock runs from then until the last one is EXPIRED. Every run
// is checked afterwards: all expired, stock restored exactly, one RELEASE row per order line.
// PostgreSQL is the project's; Redis is a redis-server of the benchmark's own. Results: printed,
// and written to docs/benchmarks.md between the bench:worker markers.
import os from "node:os";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import type { Database } from "@orderbot/db";
import {
  checkExpiry,
  createTestDatabase,
  environmentLine,
  formatTable,
  makeDue,
  markdownTable,
  packageVersion,
  prepareTemplateDatabase,
  recordSummary,
  seedReservations,
  spawnWorker,
  startRedisServer,
  writeSection,
  type ExpiryCheck,
  type RedisServer,
  type SummaryRow,
  type TestDatabase,
  type WorkerProcess,
  interleave,
} from "@orderbot/testkit";

const ORDERS = Number(process.env.BENCH_WORKER_ORDERS ?? 20_000);
const PRODUCTS = 200;
const BATCH = Number(process.env.BENCH_WORKER_BATCH ?? 500);
const ROUNDS = Number(process.env.BENCH_WORKER_ROUNDS ?? 5);
const TOKEN = "123456:BENCH-worker-token-abcdefgh";

interface RunContext {
  db: Database;
  url: string;
  redis: RedisServer;
  round: string;
  /** Starts the clock: call it right as the orders fall due. */
  start(): void;
}

interface Scenario {
  name: string;
  /** Makes the orders due and expires them; resolves when the database says all are expired. */
  run(ctx: RunContext): Promise<void>;
}

/** The same writes as core's expireDue, for every due order at once: the floor for this work. */
async function expireInOneStatement(db: Database): Promise<void> {
  await db.$executeRawUnsafe(`
    WITH due AS (
      SELECT id FROM orders WHERE status IN ('RESERVED', 'PAYING') AND expires_at <= timezone('UTC', now()) FOR UPDATE
    ), expired AS (
      UPDATE orders o SET status = 'EXPIRED', version = o.version + 1, updated_at = timezone('UTC', now())
        FROM due WHERE o.id = due.id RETURNING o.id, o.public_id, o.chat_id
    ), released AS (
      INSERT INTO stock_movements (product_id, order_id, delta, reason, actor)
      SELECT i.product_id, i.order_id, i.quantity, 'RELEASE', 'worker' FROM order_items i JOIN expired e ON e.id = i.order_id
      RETURNING product_id, delta
    ), restocked AS (
      UPDATE products p SET stock = p.stock + r.units, version = p.version + 1
        FROM (SELECT product_id, sum(delta)::int AS units FROM released GROUP BY product_id) r WHERE p.id = r.product_id
    )
    INSERT INTO outbox_messages (dedupe_key, chat_id, method, payload)
    SELECT 'expired:' || public_id, chat_id, 'notify', jsonb_build_object('template', 'order-expired', 'params', jsonb_build_object('orderId', public_id))
      FROM expired`);
}

async function untilAllExpired(db: Database): Promise<void> {
  for (;;) {
    const [row] = await db.$queryRaw<
      { open: number }[]
    >`SELECT count(*)::int AS open FROM orders WHERE status <> 'EXPIRED'`;
    if (row!.open === 0) return;
    await sleep(20);
  }
}

function workers(count: number, mode: "leader" | "shared"): Scenario["run"] {
  return async ({ db, url, redis, round, start }) => {
    const services = {
      databaseUrl: url,
      redisUrl: redis.url,
      namespace: `bench-${round}`,
      apiRoot: "http://127.0.0.1:9",
      token: TOKEN,
    };
    const env = {
      EXPIRE_MODE: mode,
      EXPIRE_INTERVAL_MS: "100",
      EXPIRE_BATCH_SIZE: String(BATCH),
      DATABASE_POOL_MAX: "4",
      LOG_LEVEL: "warn",
    };
    const procs: WorkerProcess[] = await Promise.all(
      Array.from({ length: count }, (_, i) => spawnWorker(`bench-${round}-${i}`, services, env)),
    );
    try {
      start();
      await makeDue(db);
      await untilAllExpired(db);
    } finally {
      await Promise.all(procs.map((p) => p.app.stop()));
    }
  };
}

const scenarios: Scenario[] = [
  { name: "1 worker", run: workers(1, "leader") },
  { name: "2 workers, leader mode", run: workers(2, "leader") },
  { name: "2 workers, shared mode", run: workers(2, "shared") },
  {
    name: "raw SQL, one statement",
    async run({ db, start }) {
      start();
      await makeDue(db);
      await expireInOneStatement(db);
    },
  },
];

async function measure(
  scenario: Scenario,
  redis: RedisServer,
  round: string,
): Promise<{ seconds: number; check: ExpiryCheck }> {
  const testDb: TestDatabase = await createTestDatabase({ poolMax: 2 });
  try {
    await seedReservations(testDb.db, { orders: ORDERS, products: PRODUCTS });
    await testDb.db.$executeRawUnsafe("VACUUM ANALYZE");
    // Timed from the moment the orders fall due until the last one is expired; the workers are
    // already up by then, so process start-up is not counted.
    let started = Number.NaN;
    await scenario.run({
      db: testDb.db,
      url: testDb.url,
      redis,
      round,
      start: () => (started = performance.now()),
    });
    const seconds = (performance.now() - started) / 1000;
    return { seconds, check: await checkExpiry(testDb.db) };
  } finally {
    await testDb.drop();
  }
}

const loadAtStart = os.loadavg()[0]!;
await prepareTemplateDatabase();
const redis = await startRedisServer();
const results = scenarios.map((scenario) => ({ name: scenario.name, seconds: [] as number[] }));
try {
  // Round-robin over the scenarios, so that a change in the machine's load during the run weighs
  // on all of them alike.
  await interleave([...scenarios.entries()], ROUNDS, async ([i, scenario], r) => {
    const { seconds, check } = await measure(scenario, redis, `${i}-${r}`);
    const ok =
      check.expired === ORDERS &&
      check.stockNotRestored === 0 &&
      check.releasedTwice === 0 &&
      check.releaseRows === ORDERS &&
      check.ledgerMismatch === 0;
    if (!ok) throw new Error(`${scenario.name}: the result is wrong: ${JSON.stringify(check)}`);
    results[i]!.seconds.push(seconds);
    console.log(
      `round ${r + 1}, ${scenario.name}: ${ORDERS} orders in ${seconds.toFixed(2)} s (checked: all expired, stock restored, none released twice)`,
    );
  });
} finally {
  await redis.dispose();
}

const median = (seconds: number[]) =>
  [...seconds].sort((a, b) => a - b)[Math.floor((seconds.length - 1) / 2)]!;
const best = (seconds: number[]) => Math.min(...seconds);
const baseline = ORDERS / median(results.find((r) => r.name.startsWith("raw SQL"))!.seconds);
const header = ["scenario", "orders", "median time", "orders/s (median)", "best", "vs raw SQL"];
const rows = results.map((r) => {
  const rate = ORDERS / median(r.seconds);
  return [
    r.name,
    ORDERS.toLocaleString("en-US"),
    `${median(r.seconds).toFixed(2)} s`,
    `${Math.round(rate).toLocaleString("en-US")}/s`,
    `${Math.round(ORDERS / best(r.seconds)).toLocaleString("en-US")}/s`,
    `${(rate / baseline).toFixed(2)}x`,
  ];
});
console.log(`\n${formatTable(header, rows)}\n`);

const environment = environmentLine({
  prisma: packageVersion("@prisma/client", `${process.cwd()}/packages/db`),
  pg: packageVersion("pg", `${process.cwd()}/packages/db`),
});
writeSection(
  "worker",
  [
    "## Worker: expiring reservations (`npm run bench -- worker`)",
    "",
    environment,
    `Load average ${loadAtStart.toFixed(1)} when the run started: other work on the machine shows in these figures, rerun on an idle machine to compare set-ups.`,
    "",
    `${ORDERS.toLocaleString("en-US")} due reservations across ${PRODUCTS} products (1-3 units each), a fresh database per run, ${ROUNDS} rounds (scenarios interleaved), median and best.`,
    `Workers are real processes (\`apps/worker/src/main.ts\`), batches of ${BATCH} orders, each batch one transaction`,
    "(claim with FOR UPDATE SKIP LOCKED, EXPIRED, RELEASE ledger rows, stock per product, one notice per order).",
    "The raw SQL baseline does the same writes for every due order in one statement. Every run is checked afterwards.",
    "",
    markdownTable(header, rows),
  ].join("\n"),
);
const summary: SummaryRow[] = results.map((r) => ({
  scenario: "expire due reservations",
  subject: r.name,
  rate: ORDERS / median(r.seconds),
  unit: "orders/s",
  ...(r.name.startsWith("raw SQL")
    ? {}
    : { ratio: ORDERS / median(r.seconds) / baseline, ratioAgainst: "raw SQL" }),
}));
recordSummary("worker", summary);
