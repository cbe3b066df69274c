// npm run db:seed, first step: the demo's categories (by slug, safe to run again). The script then
// imports the demo catalog's products from examples/catalog.csv with `npm run catalog`.
import path from "node:path";
import { loadEnvFiles } from "@orderbot/platform";
import { createDatabase } from "../client.ts";
import { DEMO_CATEGORIES, seedCatalog } from "../seed.ts";

loadEnvFiles(path.resolve(import.meta.dirname, "../../../.."));
const db = createDatabase({ url: process.env.DATABASE_URL ?? "", poolMax: 2 });
try {
  await seedCatalog(db, [], DEMO_CATEGORIES);
  console.log(`db:seed: ${DEMO_CATEGORIES.length} categories in place`);
} catch (error) {
  console.error(`db:seed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await db.$disconnect();
}
