// Prisma CLI configuration. Prisma 7 reads the connection URL from here, not from the schema.
// Migrations are applied by packages/db's runner (npm run db:migrate), which keeps Prisma's
// _prisma_migrations format, so `prisma migrate deploy` can be used on the same database.
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations", seed: "node --import tsx packages/db/src/cli/seed.ts" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:54329/orderbot" },
});
