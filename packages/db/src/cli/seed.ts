// npm run db:seed: loads the demo catalog into DATABASE_URL. Safe to run again.
import path from "node:path";
import { loadEnvFiles } from "@orderbot/platform";
import { createDatabase } from "../client.ts";
import { seedCatalog } from "../seed.ts";

loadEnvFiles(path.resolve(import.meta.dirname, "../../../.."));
const db = createDatabase({ url: process.env.DATABASE_URL ?? "", poolMax: 2 });
try {
  const created = await seedCatalog(db);
  console.log(`db:seed: ${created} products created`);
} catch (error) {
  console.error(`db:seed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await db.$disconnect();
}
