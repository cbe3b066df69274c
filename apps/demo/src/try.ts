// npm run try [-- --port N --host ADDR]: the shop for a person to try in a browser, with no simulated crowd.
// scripts/try starts the services; this makes a new shop database (migrated and seeded, with the
// shipped tea set), starts the fake Telegram with its web client, one bot and one worker, and
// prints the client's URL. Ctrl-C stops everything it started.
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { seedCatalog } from "@orderbot/db";
import {
  createTestDatabase,
  PHYSICAL_SHOP_ENV,
  prepareTemplateDatabase,
  PROJECT_ROOT,
  serviceUrls,
  startShopRun,
  stockPhysicalGoods,
  type ShopRun,
} from "@orderbot/testkit";
import { parseTryOptions, whereToOpen } from "./try-options.ts";

const out = (line = "") => process.stdout.write(`${line}\n`);
const parsed = parseTryOptions(process.argv.slice(2));
if (!parsed.ok) {
  process.stderr.write(`try: ${parsed.problem}\n`);
  process.exit(2);
}
const { port, host } = parsed.options;
const stopped = new Promise<string>((resolve) => {
  process.once("SIGINT", () => resolve("Ctrl-C"));
  process.once("SIGTERM", () => resolve("SIGTERM"));
});

await prepareTemplateDatabase();
const database = await createTestDatabase({ poolMax: 3 });
let shop: ShopRun | undefined;
try {
  await seedCatalog(database.db);
  await stockPhysicalGoods(database.db);
  const logDir = path.join(PROJECT_ROOT, ".data/try/logs");
  await mkdir(logDir, { recursive: true });
  out(`try: starting the fake Telegram, 1 bot and 1 worker (logs in .data/try/logs/)`);
  shop = await startShopRun({
    databaseUrl: database.url,
    redisUrl: serviceUrls().redisUrl,
    bots: 1,
    workers: 1,
    lockNamespace: "try:orderbot",
    lockHashKey: "try-run-lock-hash-key-0123456",
    logDir,
    env: { LOG_LEVEL: "info", ...PHYSICAL_SHOP_ENV },
    workerEnv: { OUTBOX_INTERVAL_MS: "500" },
    kit: { port, host, controlApi: true },
  });
  for (const line of whereToOpen(parsed.options, shop.kit.apiRoot)) out(`try: ${line}`);
  out(`try: there, create a user and send /start.`);
  out(`try: "Shop operators" is the operator group; its owner "Operator" runs the shop there.`);
  out(`try: Ctrl-C stops everything it started`);
  out(`try: ${await stopped}: stopping`);
} catch (error) {
  process.stderr.write(`try: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await shop?.stop();
  await database.drop();
  out("try: stopped everything it started");
}
