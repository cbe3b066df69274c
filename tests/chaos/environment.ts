// Everything a chaos run owns: a PostgreSQL cluster and a Redis server of its own (both get
// restarted under load, which the shared services must never suffer), the database, and the shop
// running on them as real processes: three bots behind the round-robin proxy and two workers.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { LOCK_KINDS } from "@orderbot/core";
import {
  createDatabase,
  migrate,
  seedCatalog,
  type Database,
  type SeedProduct,
} from "@orderbot/db";
import { Redis } from "ioredis";
import {
  archiveAof,
  auditRedisArgs,
  PROJECT_ROOT,
  startPostgresCluster,
  startRedisServer,
  startShopRun,
  type PostgresCluster,
  type RedisServer,
  type OrderPress,
  type ShopRun,
} from "@orderbot/testkit";
import { CHAOS_RECONCILE_GRACE_MS, CHAOS_RECONCILE_INTERVAL_MS } from "./faults/webhook-outage.ts";
import type { Sizes } from "./sizes.ts";

export const NAMESPACE = "chaos:orderbot";
export const HASH_KEY = "chaos-run-hash-key-0123456789";
export const CHECKOUT_TTL_MS = LOCK_KINDS.checkout.ttlMs;
export const ORDER_TTL_MS = LOCK_KINDS.order.ttlMs;

/** Five products; each scenario's sale starts with `stockPerProduct` of each. */
export function chaosCatalog(stockPerProduct: number): SeedProduct[] {
  return [
    {
      sku: "CHAOS-TEA",
      titleEn: "Chaos tea",
      titleZh: "混沌茶",
      priceMinor: 20,
      stock: stockPerProduct,
    },
    {
      sku: "CHAOS-CUP",
      titleEn: "Chaos cup",
      titleZh: "混沌杯",
      priceMinor: 15,
      stock: stockPerProduct,
    },
    {
      sku: "CHAOS-POT",
      titleEn: "Chaos pot",
      titleZh: "混沌壶",
      priceMinor: 90,
      stock: stockPerProduct,
    },
    {
      sku: "CHAOS-FAN",
      titleEn: "Chaos fan",
      titleZh: "混沌扇",
      priceMinor: 30,
      stock: stockPerProduct,
    },
    {
      sku: "CHAOS-MUG",
      titleEn: "Chaos mug",
      titleZh: "混沌杯子",
      priceMinor: 12,
      stock: stockPerProduct,
    },
  ];
}

export interface ChaosEnvironment {
  pg: PostgresCluster;
  redis: RedisServer;
  /** The harness's own Redis client (lock key probes); reconnects after a restart. */
  probe: Redis;
  aofDir: string;
  /** Redis restarts so far; each life's AOF is kept for the lock audit. */
  redisLives: number;
  db: Database;
  shop: ShopRun;
  catalog: SeedProduct[];
  logDir: string;
  /** Every press of Order across this environment's run (the effects check spans its database). */
  presses: OrderPress[];
  /** Every update a polling bot skipped after its retry window, across this environment's run. */
  skipped: Set<number>;
  dispose(): Promise<void>;
}

export async function startChaosEnvironment(
  sizes: Sizes,
  say: (line: string) => void,
): Promise<ChaosEnvironment> {
  const cleanup: (() => Promise<unknown>)[] = [];
  const dispose = async () => {
    for (const step of cleanup.reverse()) await step().catch(() => undefined);
  };
  try {
    const pg = await startPostgresCluster();
    cleanup.push(() => pg.dispose());
    say(`postgres: a cluster of this run's own on port ${pg.port}`);
    const aofDir = await mkdtemp(path.join(os.tmpdir(), "orderbot-chaos-redis-"));
    cleanup.push(() => rm(aofDir, { recursive: true, force: true }));
    const redis = await startRedisServer({ args: auditRedisArgs(aofDir) });
    cleanup.push(() => redis.dispose());
    say(
      `redis: a server of this run's own on port ${redis.port} (append-only file audited for locks)`,
    );
    const probe = new Redis(redis.url, {
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      retryStrategy: () => 200,
    });
    probe.on("error", () => undefined);
    cleanup.push(async () => probe.disconnect());

    const admin = createDatabase({ url: pg.url(), poolMax: 1 });
    await admin.$executeRawUnsafe(`CREATE DATABASE chaos`);
    await admin.$disconnect();
    await migrate({ url: pg.url("chaos"), dir: path.join(PROJECT_ROOT, "prisma/migrations") });
    const db = createDatabase({ url: pg.url("chaos"), poolMax: 4, connectTimeoutMs: 10_000 });
    cleanup.push(() => db.$disconnect());
    const catalog = chaosCatalog(sizes.stockPerProduct);
    await seedCatalog(db, catalog);

    const logDir = await mkdtemp(path.join(os.tmpdir(), "orderbot-chaos-logs-"));
    const shop = await startShopRun({
      databaseUrl: pg.url("chaos"),
      redisUrl: redis.url,
      bots: 3,
      workers: 2,
      lockNamespace: NAMESPACE,
      lockHashKey: HASH_KEY,
      logDir,
      onEvent: say,
      // A request the kit gives up on after 5 s is re-delivered (to another bot, most likely).
      kit: { webhook: { timeoutMs: 5_000, retryBaseMs: 200, retryMaxMs: 2_000, maxAttempts: 60 } },
      env: {
        LOG_LEVEL: "warn",
        DATABASE_POOL_MAX: "8",
        DATABASE_CONNECT_TIMEOUT_MS: "3000",
        PAYMENT_GRACE_MS: "5000",
        // A payment whose reply was lost is announced by the worker after this, not 20 s: the
        // scenarios' settling waited on it.
        PAYMENT_NOTICE_DELAY_MS: "5000",
      },
      botEnv: {
        RESERVATION_SECONDS: String(sizes.reservationSeconds),
        RATE_LIMIT_PER_WINDOW: "60",
      },
      workerEnv: {
        EXPIRE_INTERVAL_MS: "500",
        OUTBOX_INTERVAL_MS: "200",
        REFUND_INTERVAL_MS: "500",
        JOB_LOCK_TTL_MS: "3000",
        OUTBOX_RETRY_BASE_MS: "200",
        OUTBOX_RETRY_MAX_MS: "2000",
        OUTBOX_HORIZON_MS: "1000",
        OUTBOX_SEND_TIMEOUT_MS: "2000",
        OUTBOX_CLAIM_MS: "4000",
        OUTBOX_MAX_ATTEMPTS: "30",
        // Short, so that a webhook outage outlasts it within a quick run (faults/webhook-outage.ts).
        RECONCILE_GRACE_MS: String(CHAOS_RECONCILE_GRACE_MS),
        RECONCILE_INTERVAL_MS: String(CHAOS_RECONCILE_INTERVAL_MS),
      },
    });
    cleanup.push(() => shop.stop());
    say(
      `processes: ${[...shop.bots, ...shop.workers].map((a) => `${a.name} (pid ${a.process.pid})`).join(", ")}; logs in ${logDir}`,
    );
    if (!(await shop.operator.mutePaidOrderNotices()))
      throw new Error("the operator could not turn paid-order notices off");

    const env: ChaosEnvironment = {
      pg,
      redis,
      probe,
      aofDir,
      redisLives: 1,
      db,
      shop,
      catalog,
      logDir,
      presses: [],
      skipped: new Set(),
      dispose,
    };
    return env;
  } catch (error) {
    await dispose();
    throw error;
  }
}

/** Restarts Redis empty, as a crash of a cache without persistence would leave it; the old life's AOF is kept. */
export async function restartRedis(
  env: ChaosEnvironment,
  downMs: number,
  whileDown?: () => Promise<void>,
): Promise<void> {
  await env.redis.stop();
  await archiveAof(env.aofDir, env.redisLives);
  env.redisLives++;
  try {
    await Promise.all([new Promise((r) => setTimeout(r, downMs)), whileDown?.()]);
  } finally {
    await env.redis.start(); // whatever happened meanwhile, the shop gets its Redis back
  }
}
