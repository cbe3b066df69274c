// An upgrade as it runs: the previous release (scripts/previous-release, built from git here) and
// this one side by side on the database migrated to this release's schema. A bot of each release
// takes turns behind the webhook, the previous release's worker leads the jobs beside this one's,
// then stops and this one's takes over. Shoppers pay, cancel and walk away throughout; afterwards
// every invariant holds, every payment went through, and nothing was dead-lettered
// (docs/operations.md, "Upgrades").
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedCatalog, type SeedProduct } from "@orderbot/db";
import { seededRandom } from "@orderbot/fake-telegram";
import {
  checkInvariants,
  checkoutRelease,
  chargeLedgerOf,
  createTestDatabase,
  createTestRedis,
  formatInvariants,
  freePort,
  makeDue,
  previousReleaseCommit,
  runCustomer,
  settle,
  spawnApp,
  startShopRun,
  type AppProcess,
  type CustomerResult,
  type Intent,
  type ReleaseCheckout,
  type ShopRun,
  type TestDatabase,
  type TestRedis,
} from "@orderbot/testkit";

const CATALOG: SeedProduct[] = [
  { sku: "UPGRADE-TEA", titleEn: "Upgrade tea", titleZh: "升级茶", priceMinor: 20, stock: 100 },
  { sku: "UPGRADE-CUP", titleEn: "Upgrade cup", titleZh: "升级杯", priceMinor: 15, stock: 100 },
];

const JOBS = {
  EXPIRE_INTERVAL_MS: "300",
  OUTBOX_INTERVAL_MS: "200",
  REFUND_INTERVAL_MS: "500",
  JOB_LOCK_TTL_MS: "3000",
  OUTBOX_RETRY_BASE_MS: "200",
  OUTBOX_RETRY_MAX_MS: "1000",
};
/** A job that waits this long before its first run never runs in the test. */
const NEVER = "3600000";

let release: ReleaseCheckout;
let testDb: TestDatabase;
let testRedis: TestRedis;
let run: ShopRun;
const workers: AppProcess[] = [];
const handledBy = new Map<string, number>();

beforeAll(async () => {
  release = checkoutRelease(previousReleaseCommit());
  [testDb, testRedis] = await Promise.all([createTestDatabase(), createTestRedis()]);
  await seedCatalog(testDb.db, CATALOG);
  run = await startShopRun({
    databaseUrl: testDb.url,
    redisUrl: testRedis.url,
    bots: 2,
    workers: 1,
    lockNamespace: testRedis.namespace,
    lockHashKey: "upgrade-lock-hash-key-0123456789",
    // bot-1 and worker-1 run the previous release.
    sourceOf: (name) => (name.endsWith("-1") ? release.root : undefined),
    env: { LOG_LEVEL: "warn", DATABASE_POOL_MAX: "4" },
    botEnv: { RATE_LIMIT_PER_WINDOW: "1000" },
    // The previous release's worker sends what this release's expires: it is the only relay, and
    // this release's worker the only expiry, until the upgrade finishes.
    workerEnv: { ...JOBS, EXPIRE_INTERVAL_MS: NEVER },
  });
  run.onForward((bot) => handledBy.set(bot.name, (handledBy.get(bot.name) ?? 0) + 1));
  workers.push(await startWorker("worker-2", { OUTBOX_INTERVAL_MS: NEVER }));
}, 120_000);

afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  await run?.stop();
  await Promise.all([testRedis?.cleanup(), testDb?.drop()]);
  release?.dispose();
});

/** A worker of this release beside the shop's. */
async function startWorker(name: string, env: Record<string, string>): Promise<AppProcess> {
  const port = await freePort();
  const worker = await spawnApp({
    name,
    entry: "apps/worker/src/main.ts",
    env: { ...run.env, ...JOBS, ...env, WORKER_PORT: String(port), WORKER_ID: name },
  });
  await worker.waitReady(`http://127.0.0.1:${port}/readyz`);
  return worker;
}

type Plan = Intent | "walk-away";

/**
 * Shoppers at once, through both bots (the webhook takes turns). One who walks away presses Pay
 * first: the reservation expires with a live invoice, which the expiry's event must delete.
 */
function shoppers(round: number, plans: Plan[]): Promise<CustomerResult[]> {
  return Promise.all(
    plans.map(async (plan, i) => {
      const user = run.kit.createUser({ firstName: `Upgrader${round}${i}`, languageCode: "en" });
      const intent: Intent = plan === "walk-away" ? "abandon" : plan;
      const result = await runCustomer(user, {
        kit: run.kit,
        products: CATALOG.map((p) => p.titleEn),
        intents: { pay: 0, cancel: 0, abandon: 0, [intent]: 1 },
        maxQuantity: 2,
        thinkMs: [50, 150],
        random: seededRandom(round * 10 + i),
      });
      if (plan === "walk-away" && result.press?.open) {
        const outcome = await (await user.press(/^Pay /)).handled();
        if (outcome.status !== "delivered") result.error = `Pay: ${outcome.status}`;
      }
      return result;
    }),
  );
}

/**
 * The shoppers' walks-away run out at once (a reservation lasts minutes), and all is sent; events
 * only once this release's worker relays.
 */
async function settled(events: boolean): Promise<void> {
  await makeDue(testDb.db);
  const result = await settle({ kit: run.kit, db: testDb.db, timeoutMs: 30_000, events });
  expect(result.pending, "the shop settled").toEqual([]);
}

/** Lines of level error (50) or worse in the processes' pino output. */
function errorLines(apps: AppProcess[]): string[] {
  return apps.flatMap((app) =>
    app.output.filter((line) => /"level":(5\d|60)\b/.test(line)).map((l) => `${app.name}: ${l}`),
  );
}

describe("an upgrade from the previous release", () => {
  it("serves orders with both releases side by side: invariants hold, nothing dead", async () => {
    const results = await shoppers(1, ["pay", "cancel", "abandon", "walk-away", "walk-away"]);
    await settled(false);
    // The upgrade finishes: the previous release's worker stops, this release's takes its jobs.
    await run.workers[0]!.process.stop();
    workers.push(await startWorker("worker-3", {}));
    results.push(...(await shoppers(2, ["pay", "cancel", "abandon", "walk-away"])));
    await settled(true);

    expect([...handledBy.keys()].sort(), "both releases' bots handled updates").toEqual([
      "bot-1",
      "bot-2",
    ]);
    const outcomes = results.map(
      (r) => `${r.intent}: ${r.error ?? r.payment?.status ?? (r.cancelled ? "cancelled" : "-")}`,
    );
    expect(outcomes.filter((o) => !/^(pay: paid|cancel: cancelled|abandon: -)$/.test(o))).toEqual(
      [],
    );
    // Each paid order told to the operators once: by the previous release's row, or by an event
    // that waited for this release's relay.
    const paidAlerts = run.kit
      .callsTo("sendMessage")
      .filter((c) => c.ok && String(c.chatId) === run.env.OPERATOR_GROUP_ID)
      .filter((c) => /^Order \S+ was paid/.test(String(c.params.text)));
    const paid = results.filter((r) => r.payment?.status === "paid").length;
    expect(paidAlerts.length, "paid-order alerts").toBe(paid);
    const deleted = run.kit.callsTo("deleteMessage").filter((c) => c.ok);
    expect(deleted.length, "the walked-away invoices were deleted").toBe(3);
    const dead = await testDb.db.outboxMessage.findMany({
      where: { status: "DEAD" },
      select: { method: true, lastError: true },
    });
    expect(dead, "dead-lettered messages").toEqual([]);
    const invariants = await checkInvariants(testDb.db, {
      expirySlackMs: 10_000,
      outboxDrained: true,
      charges: chargeLedgerOf(run.kit),
    });
    expect(
      invariants.filter((r) => !r.ok),
      formatInvariants(invariants),
    ).toEqual([]);
    expect(
      errorLines([...run.bots.map((b) => b.process), run.workers[0]!.process, ...workers]),
    ).toEqual([]);
  }, 120_000); // two settles of up to 30 s each on a busy machine
});
