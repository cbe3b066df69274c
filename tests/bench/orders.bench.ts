// npm run bench:orders — placeOrder throughput and latency on real PostgreSQL and Redis, as the shop
// does it (a per-user `checkout` lock taken without waiting, then one short transaction with
// conditional updates) beside the naive design that serialises every order under one global lock.
//
//   hot:    every order is for the same sku (a flash sale)
//   spread: each order picks one of 1,000 skus at random
//
// Both designs run the same transaction (reserveOrder) on the same database in the same run; only
// the lock around it differs. Each order comes from a new user, so neither the open-order cap nor
// a double tap plays a part. Clients are spread over INSTANCES shops, each with its own PostgreSQL
// pool, Redis connection and lock manager, as separate bot replicas would have.
// PostgreSQL is the project's (a fresh database cloned from the migrated template); Redis is a
// redis-server of the benchmark's own. Results: printed, and written to docs/benchmarks.md between
// the bench:orders markers.
import os from "node:os";
import { createDatabase, type Database } from "@orderbot/db";
import { createLockManager, type LockManager } from "@orderbot/lock";
import { createRedis, Registry, waitForRedis, type Redis } from "@orderbot/platform";
import { createTestDatabase, prepareTemplateDatabase, startRedisServer } from "@orderbot/testkit";
import { createShop, LOCK_KINDS, reserveOrder, type PlaceOrderResult, type Shop } from "@orderbot/core";
import {
  environmentLine,
  formatMs,
  formatRate,
  formatTable,
  markdownTable,
  packageVersion,
  percentile,
  recordSummary,
  Samples,
  writeSection,
  type SummaryRow,
} from "./support/report.ts";

const CELL_MS = Number(process.env.BENCH_CELL_MS ?? 4000);
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
}

interface Design {
  name: string;
  place(instance: Instance, userId: bigint, sku: string): Promise<PlaceOrderResult>;
}

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
        : { status: outcome.status === "busy" ? "busy" : "unavailable" };
    },
  },
];

interface CellResult {
  scenario: string;
  design: string;
  ok: number;
  rate: number;
  p50: number;
  p99: number;
  max: number;
  other: string;
}

let nextUser = 8_000_000_000n;

async function runCell(
  instances: Instance[],
  scenario: string,
  design: Design,
  pickSku: () => string,
): Promise<CellResult> {
  const samples = new Samples();
  const outcomes = new Map<string, number>();
  const started = performance.now();
  const measureFrom = started + WARMUP_MS;
  const end = measureFrom + CELL_MS;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      const instance = instances[client % instances.length]!;
      while (performance.now() < end) {
        const userId = nextUser++;
        const t0 = performance.now();
        const result = await design.place(instance, userId, pickSku());
        const t1 = performance.now();
        if (t0 < measureFrom || t1 > end) continue;
        samples.add(t1 - t0);
        outcomes.set(result.status, (outcomes.get(result.status) ?? 0) + 1);
      }
    }),
  );
  const sorted = samples.sorted();
  const ok = outcomes.get("ok") ?? 0;
  outcomes.delete("ok");
  return {
    scenario,
    design: design.name,
    ok,
    rate: ok / (CELL_MS / 1000),
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: percentile(sorted, 100),
    other: [...outcomes].map(([status, n]) => `${status} ${n}`).join(", ") || "none",
  };
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
  return { hot: `SKU-${SPREAD_SKUS}`, spread: Array.from({ length: SPREAD_SKUS }, (_, n) => `SKU-${n}`) };
}

async function main(): Promise<void> {
  const loadBefore = os.loadavg()[0]!;
  await prepareTemplateDatabase();
  const testDb = await createTestDatabase();
  const server = await startRedisServer();
  const instances: Instance[] = [];
  try {
    for (let i = 0; i < INSTANCES; i++) {
      const db = createDatabase({ url: testDb.url, poolMax: POOL_MAX, connectTimeoutMs: 30_000 });
      const redis = createRedis({ url: server.url, commandTimeoutMs: 2_000 });
      await waitForRedis(redis);
      const registry = new Registry();
      const locks = createLockManager({
        redis,
        namespace: "bench:orders",
        hashKey: MASK_KEY,
        registry,
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
      instances.push({ shop, db, redis, locks });
    }
    const { hot, spread } = await seedProducts(instances[0]!.db);

    const results: CellResult[] = [];
    const scenarios: [string, () => string][] = [
      ["hot: one sku", () => hot],
      [
        `spread: ${SPREAD_SKUS.toLocaleString("en-US")} skus`,
        () => spread[Math.floor(Math.random() * spread.length)]!,
      ],
    ];
    for (const [scenario, pickSku] of scenarios) {
      for (const design of designs) {
        const result = await runCell(instances, scenario, design, pickSku);
        console.log(
          `${scenario} | ${design.name}: ${formatRate(result.rate)}, p50 ${formatMs(result.p50)}, p99 ${formatMs(result.p99)}`,
        );
        results.push(result);
      }
    }

    const header = ["scenario", "design", "orders", "p50", "p99", "max", "vs global lock", "other outcomes"];
    const rows = results.map((r) => {
      const baseline = results.find((b) => b.scenario === r.scenario && b.design === designs[1]!.name)!;
      return [
        r.scenario,
        r.design,
        formatRate(r.rate),
        formatMs(r.p50),
        formatMs(r.p99),
        formatMs(r.max),
        `${(r.rate / baseline.rate).toFixed(2)}x`,
        r.other,
      ];
    });
    console.log(`\n${formatTable(header, rows)}`);

    const env = environmentLine({
      "@prisma/client": packageVersion("@prisma/client"),
      "@prisma/adapter-pg": packageVersion("@prisma/adapter-pg"),
      pg: packageVersion("pg"),
      ioredis: packageVersion("ioredis", "packages/lock"),
    });
    const [pgVersion] = await instances[0]!.db.$queryRaw<
      { v: string }[]
    >`SELECT current_setting('server_version') AS v`;
    writeSection(
      "orders",
      `## placeOrder: per-user lock vs one global lock (\`npm run bench:orders\`)

${env}  
PostgreSQL ${pgVersion?.v ?? "?"} (the project's local cluster, fsync off), a redis-server of the benchmark's own  
Load average (1 min) ${loadBefore.toFixed(2)} before the run, ${os.loadavg()[0]!.toFixed(2)} after: other work on the machine slows every cell alike

${CLIENTS} concurrent clients over ${INSTANCES} shop instances (each its own pool of ${POOL_MAX} PostgreSQL connections, Redis
connection and lock manager), ${CELL_MS} ms per cell after a ${WARMUP_MS} ms warm-up, all cells in one run. Every order is one
unit from a new user; "orders" counts reservations completed per second. Both designs run the same transaction
(\`reserveOrder\`: advisory lock per user, the order, its items and ledger rows in one statement, a conditional decrement);
only the lock around it differs. Latency is one placeOrder call as the client sees it, waiting included.

${markdownTable(header, rows)}

With one hot sku the two designs meet at the same bottleneck, the product row: its lock serialises the decrements
whatever Redis does, so a global lock adds a queue in front of a queue. Spread over many skus the transactions run in
parallel, and only the per-user design lets them.`,
    );
    const summary: SummaryRow[] = results
      .filter((r) => r.design === designs[0]!.name)
      .map((r) => {
        const baseline = results.find((b) => b.scenario === r.scenario && b.design === designs[1]!.name)!;
        return {
          scenario: `placeOrder, ${r.scenario}`,
          subject: "per-user checkout lock",
          rate: r.rate,
          unit: "orders/s",
          p50: r.p50,
          p99: r.p99,
          ratio: r.rate / baseline.rate,
          ratioAgainst: "one global lock",
        };
      });
    recordSummary("orders", summary);
    console.log("\nwritten to docs/benchmarks.md (bench:orders)");
  } finally {
    for (const instance of instances) {
      await instance.locks.close();
      instance.redis.disconnect();
      await instance.db.$disconnect();
    }
    await server.dispose();
    await testDb.drop();
  }
}

await main();
