// npm run db:seed: loads the demo catalog and its physical goods into DATABASE_URL. Safe to run again.
import path from "node:path";
import { loadEnvFiles } from "@orderbot/platform";
import { createDatabase } from "../client.ts";
import { PHYSICAL_DEMO_CATALOG, seedCatalog } from "../seed.ts";

loadEnvFiles(path.resolve(import.meta.dirname, "../../../.."));
const db = createDatabase({ url: process.env.DATABASE_URL ?? "", poolMax: 2 });
try {
  // Physical goods too: shown without a provider, sold once PROVIDER_TOKEN is set.
  const created = (await seedCatalog(db)) + (await seedCatalog(db, PHYSICAL_DEMO_CATALOG));
  console.log(`db:seed: ${created} products created`);
} catch (error) {
  console.error(`db:seed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await db.$disconnect();
}
