// npm run db:migrate: applies prisma/migrations to DATABASE_URL. Exits non-zero on any failure.
import path from "node:path";
import { loadEnvFiles } from "@orderbot/platform";
import { migrate } from "../migrate.ts";

const root = path.resolve(import.meta.dirname, "../../../..");
loadEnvFiles(root);
const url = process.argv[2] ?? process.env.DATABASE_URL;
if (!url) {
  console.error("db:migrate: DATABASE_URL is not set");
  process.exit(1);
}
try {
  const { applied, alreadyApplied } = await migrate({
    url,
    dir: path.join(root, "prisma/migrations"),
    log: (line) => console.log(`db:migrate: ${line}`),
  });
  console.log(`db:migrate: ${applied.length} applied, ${alreadyApplied.length} already up to date`);
} catch (error) {
  console.error(`db:migrate: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
