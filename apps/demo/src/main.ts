// npm run demo [-- --users N --seconds S --keep]: the whole shop with simulated users. scripts/demo
// starts the services; this makes a new shop database (migrated and seeded), starts the fake
// Telegram, two bots behind the proxy and a worker, runs a flash sale (shoppers search or browse
// the categories and check out carts) while an operator restocks, ships and delivers, shows live progress, then
// checks the invariants and prints the report. Ctrl-C stops everything it started.
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { seedCatalog } from "@orderbot/db";
import {
  chargeLedgerOf,
  checkEffects,
  checkInvariants,
  checkPhysicalOrders,
  checkPromoUses,
  createPromoCode,
  createTestDatabase,
  digitalFigures,
  PHYSICAL_SHOP_ENV,
  physicalFigures,
  startPhysicalShoppers,
  stockPhysicalGoods,
  loadGiftCards,
  startDigitalShoppers,
  prepareTemplateDatabase,
  PROJECT_ROOT,
  promoFigures,
  scrapeAll,
  serviceUrls,
  settle,
  startFlashSale,
  startProgress,
  startShopRun,
  summarizeLocks,
  type LockSummary,
  type ShopRun,
} from "@orderbot/testkit";
import { formatDemoReport } from "./report.ts";

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  const value = i >= 0 ? Number(args[i + 1]) : fallback;
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`--${name} must be a positive whole number`);
  return value;
};
const USERS = option("users", 100);
const SECONDS = option("seconds", 45);
const KEEP = args.includes("--keep");
const ON_SALE = 8; // products in the sale, from several categories
const RESERVATION_SECONDS = Math.max(5, Math.min(30, Math.round(SECONDS / 4)));
// A limited promo code some shoppers apply: good for fewer uses than they would take.
const PROMO = { code: "SALE", percent: 10, uses: Math.max(3, Math.round(USERS / 10)), share: 0.4 };
// Shoppers of the digital gift card, besides the sale's: a pool a little short of what they buy.
const DIGITAL = {
  users: Math.max(3, Math.round(USERS / 5)),
  codes: Math.max(3, Math.round(USERS / 4)),
};
// Shoppers of a shipped tea set, paid through a test payment provider with delivery to an address.
const PHYSICAL = { users: Math.max(2, Math.round(USERS / 6)) };

const out = (line = "") => process.stdout.write(`${line}\n`);
class Interrupted extends Error {
  override name = "Interrupted";
}
const interrupted = new AbortController();
process.once("SIGINT", () => {
  out("\ndemo: Ctrl-C: stopping everything it started");
  interrupted.abort();
});

const { redisUrl } = serviceUrls();
// Every demo is a new shop, in a database of its own (cloned from the migrated template, dropped at
// the end): a fresh fake Telegram starts its chats' message ids at 1 again, and against an earlier
// run's rows a repeated id reads as the same command delivered twice.
await prepareTemplateDatabase();
const shopDatabase = await createTestDatabase({ poolMax: 3 });
const { db, url: databaseUrl } = shopDatabase;
let shop: ShopRun | undefined;
try {
  await seedCatalog(db);
  const started = new Date();
  // Shoppers find a product by its name or through its category and subcategory, as people do.
  const categories = new Map(
    (await db.category.findMany()).map((c) => [c.id, { title: c.titleEn, parentId: c.parentId }]),
  );
  const pathOf = (id: number | null): string[] => {
    const category = id === null ? undefined : categories.get(id);
    return category ? [...pathOf(category.parentId), category.title] : [];
  };
  const products = (
    await db.product.findMany({ where: { active: true }, orderBy: { id: "asc" }, take: ON_SALE })
  ).map((p) => ({ sku: p.sku, title: p.titleEn, categories: pathOf(p.categoryId) }));
  if (products.length === 0) throw new Error("the demo catalog is empty");
  const logDir = path.join(PROJECT_ROOT, ".data/demo/logs");
  await rm(logDir, { recursive: true, force: true });
  await mkdir(logDir, { recursive: true });
  out(
    `demo: starting the fake Telegram, 2 bots behind a round-robin proxy and 1 worker (logs in ${path.relative(PROJECT_ROOT, logDir)}/)`,
  );
  shop = await startShopRun({
    databaseUrl,
    redisUrl,
    bots: 2,
    workers: 1,
    lockNamespace: "demo:orderbot",
    lockHashKey: "demo-run-lock-hash-key-0123",
    logDir,
    env: { LOG_LEVEL: "info", ...PHYSICAL_SHOP_ENV },
    botEnv: { RESERVATION_SECONDS: String(RESERVATION_SECONDS) },
    // The fake's web client (at its root URL) lists every shopper's chat; --keep prints it.
    kit: { controlApi: true },
    workerEnv: {
      EXPIRE_INTERVAL_MS: "1000",
      OUTBOX_INTERVAL_MS: "500",
      REFUND_INTERVAL_MS: "2000",
    },
  });
  const apps = [...shop.bots, ...shop.workers];
  out(
    `demo: ready: ${apps.map((a) => `${a.name} (pid ${a.process.pid}, metrics ${a.metricsUrl})`).join(", ")}`,
  );
  // Telegram lets a bot post about 20 messages a minute in a group: fewer than a sale's paid orders.
  await shop.operator.mutePaidOrderNotices();
  // Fewer units than the crowd wants: a flash sale sells out, and the operator's restocks matter.
  const perProduct = Math.max(3, Math.round(USERS / 10));
  for (const p of products) await shop.operator.stock(p.sku, `=${perProduct}`);
  out(
    `demo: the operator set ${products.length} products to ${perProduct} units each and muted paid-order notices in the group`,
  );
  await createPromoCode(shop.operator, PROMO);
  out(
    `demo: the operator created promo code ${PROMO.code} (-${PROMO.percent}%, ${PROMO.uses} uses); about ${Math.round(PROMO.share * 100)}% of shoppers apply it`,
  );
  out(
    `demo: ${USERS} shoppers arrive over ${SECONDS} s; each searches or browses the categories, fills a cart with 1-3 products, checks out, then pays, cancels or walks away (reservations last ${RESERVATION_SECONDS} s); the operator ships and delivers what is paid`,
  );

  out(`demo: ${await loadGiftCards(db, shop.operator, DIGITAL.codes)} (/codes from the group)`);
  out(
    `demo: ${DIGITAL.users} more shoppers buy the digital gift card (1 or 2 codes each) and get its codes in their chat`,
  );

  const shipped = await stockPhysicalGoods(db);
  out(
    `demo: ${PHYSICAL.users} more shoppers buy the "${shipped}", paid in USD through a test provider with delivery to their address (the bot answers each shipping query with the options for its country)`,
  );

  const random = Math.random;
  const physical = startPhysicalShoppers({
    kit: shop.kit,
    users: PHYSICAL.users,
    seconds: SECONDS,
    random,
    signal: interrupted.signal,
    firstUserId: 7_400_000_000,
  });
  const digital = startDigitalShoppers({
    kit: shop.kit,
    users: DIGITAL.users,
    seconds: SECONDS,
    random,
    signal: interrupted.signal,
    firstUserId: 7_300_000_000,
  });
  const sale = startFlashSale({
    kit: shop.kit,
    users: USERS,
    seconds: SECONDS,
    products: products.map((p) => ({ title: p.title, categories: p.categories })),
    maxLines: 3,
    intents: { pay: 0.5, cancel: 0.2, abandon: 0.3 },
    maxQuantity: 3,
    thinkMs: [200, 1_500],
    random,
    signal: interrupted.signal,
    firstUserId: 7_100_000_000,
    promo: { code: PROMO.code, share: PROMO.share },
  });
  const restock = new AbortController();
  const stopRestock = () => restock.abort();
  interrupted.signal.addEventListener("abort", stopRestock);
  const restocking = shop.operator.restockWhile({
    skus: products.map((p) => p.sku),
    everyMs: Math.max(3_000, (SECONDS * 1000) / 6),
    units: [2, 4],
    random,
    signal: restock.signal,
  });
  // The operator ships what is paid and delivers what is shipped, every few seconds, from the group.
  const fulfilling = shop.operator.fulfilWhile({
    everyMs: Math.max(2_000, (SECONDS * 1000) / 10),
    signal: restock.signal,
  });

  let states: Record<string, number> = {};
  let locks: LockSummary | undefined;
  const watching = new AbortController();
  const watch = (async () => {
    for (let tick = 0; !watching.signal.aborted; tick++) {
      const rows = await db.$queryRaw<{ status: string; n: number }[]>`
        SELECT status::text, count(*)::int AS n FROM orders WHERE created_at >= ${started}::timestamptz AT TIME ZONE 'UTC' GROUP BY status`.catch(
        () => [],
      );
      states = Object.fromEntries(rows.map((r) => [r.status, r.n]));
      if (tick % 2 === 0) locks = summarizeLocks(await scrapeAll(apps.map((a) => a.metricsUrl)));
      await sleep(1_000, undefined, { signal: watching.signal }).catch(() => undefined);
    }
  })();
  const progress = startProgress({
    render: () => {
      const s = sale.stats;
      const orders = ["RESERVED", "PAYING", "PAID", "SHIPPED", "DELIVERED", "CANCELLED", "EXPIRED"]
        .map((k) => `${states[k] ?? 0} ${k.toLowerCase()}`)
        .join(", ");
      const waits = locks
        ? `lock waits >10 ms ${locks.waits} (p99 ${locks.p99WaitMs} ms), ${locks.outcomes.busy ?? 0} busy`
        : "lock waits …";
      return `users ${s.done}/${USERS} done (${s.started} arrived) · orders: ${orders} · sold out ${s.soldOutOnCard + s.placed["out-of-stock"]} · ${waits}`;
    },
  });
  // Ctrl-C: no waiting for shoppers whose updates can no longer be delivered (the bots got SIGINT too).
  const aborted = new Promise<null>((resolve) =>
    interrupted.signal.addEventListener("abort", () => resolve(null)),
  );
  const results = await Promise.race([sale.finished, aborted]);
  const digitalResults = await Promise.race([digital.finished, aborted]);
  const physicalResults = await Promise.race([physical.finished, aborted]);
  stopRestock();
  if (results === null || digitalResults === null || physicalResults === null) {
    progress.stop();
    watching.abort();
    throw new Interrupted();
  }
  await restocking;
  await fulfilling;
  // Orders paid in the last moments: ship and deliver them too.
  while ((await shop.operator.fulfilRound()) > 0);
  progress.log(
    `demo: all shoppers done; waiting for reservations to expire and the outbox to drain`,
  );
  const settled = await settle({
    kit: shop.kit,
    db,
    timeoutMs: RESERVATION_SECONDS * 1000 + 60_000,
  });
  watching.abort();
  await watch;
  progress.stop();

  const kit = shop.kit;
  const refunded = kit
    .callsTo("refundStarPayment")
    .filter((c) => c.ok)
    .map((c) => String(c.params.telegram_payment_charge_id));
  const invariants = [
    ...(await checkInvariants(db, {
      expirySlackMs: 10_000,
      paymentGraceMs: 5 * 60_000,
      telegram: {
        chargeIds: kit.charges.map((c) => c.chargeId),
        refundedChargeIds: refunded,
        since: started,
      },
      outboxDrained: true,
      charges: chargeLedgerOf(kit),
    })),
    await checkPromoUses(db),
    await checkPhysicalOrders(db),
    ...(await checkEffects(db, {
      kit,
      // The gift card's shoppers press Order too: their orders are presses like the sale's.
      presses: [...results, ...digitalResults, ...physicalResults].flatMap((r) =>
        r.press ? [r.press] : [],
      ),
      stockCommands: shop.operator.commands,
      since: started,
    })),
  ];
  const [oversold] = await db.$queryRaw<{ units: number }[]>`
    SELECT COALESCE(SUM(GREATEST(h.held - COALESCE(s.supplied, 0), 0)), 0)::int AS units
    FROM (SELECT i.product_id, SUM(i.quantity) AS held FROM order_items i JOIN orders o ON o.id = i.order_id
          WHERE o.status IN ('RESERVED','PAYING','PAID','PROCESSING','SHIPPED','DELIVERED') GROUP BY i.product_id) h
    LEFT JOIN (SELECT product_id, SUM(delta) AS supplied FROM stock_movements
               WHERE reason IN ('SEED','ADJUST','IMPORT') GROUP BY product_id) s ON s.product_id = h.product_id`;
  const rows = await db.$queryRaw<{ status: string; n: number }[]>`
    SELECT status::text, count(*)::int AS n FROM orders WHERE created_at >= ${started}::timestamptz AT TIME ZONE 'UTC' GROUP BY status`;
  const paidToShipped = await db.$queryRaw<{ ms: number }[]>`
    SELECT (EXTRACT(EPOCH FROM s.created_at - p.created_at) * 1000)::float8 AS ms
    FROM order_timeline s
    JOIN LATERAL (SELECT created_at FROM order_timeline t
                  WHERE t.order_id = s.order_id AND t.to_status = 'PAID'
                  ORDER BY t.created_at LIMIT 1) p ON true
    WHERE s.to_status = 'SHIPPED' AND s.created_at >= ${started}::timestamptz AT TIME ZONE 'UTC'`;
  const figures = {
    users: USERS,
    seconds: SECONDS,
    bots: shop.bots.length,
    workers: shop.workers.length,
    products: products.length,
    unitsOnSale: products.length * perProduct,
    orders: Object.fromEntries(rows.map((r) => [r.status, r.n])),
    sale: sale.stats,
    restocks: shop.operator.commands,
    fulfilments: shop.operator.fulfilments,
    paidToShippedMs: paidToShipped.map((r) => r.ms),
    oversold: oversold?.units ?? 0,
    promo: await promoFigures(db, PROMO.code),
    digital: await digitalFigures(db, kit, digitalResults),
    physical: await physicalFigures(db, physicalResults),
    invariants,
    locks: summarizeLocks(await scrapeAll(apps.map((a) => a.metricsUrl))),
    metricsUrls: apps.map((a) => ({ name: a.name, url: a.metricsUrl })),
    logFiles: apps.map((a) => path.relative(PROJECT_ROOT, path.join(logDir, `${a.name}.log`))),
    settledInMs: settled.waitedMs,
  };
  out("");
  out(formatDemoReport(figures));
  if (KEEP && !interrupted.signal.aborted) {
    out("\ndemo: --keep: the shop keeps running (metrics above are live); Ctrl-C stops it");
    out(`demo: open ${shop.kit.apiRoot}/ in a browser: every shopper's chat, and room to join in`);
    await new Promise((resolve) => interrupted.signal.addEventListener("abort", resolve));
  }
  process.exitCode =
    interrupted.signal.aborted && !KEEP ? 130 : invariants.every((i) => i.ok) ? 0 : 1;
} catch (error) {
  if (!(error instanceof Interrupted))
    process.stderr.write(`demo: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = interrupted.signal.aborted ? 130 : 1;
} finally {
  await shop?.stop();
  await shopDatabase.drop();
  out("demo: stopped everything it started");
}
