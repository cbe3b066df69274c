// Settings every workspace's tests share. Real PostgreSQL and Redis back every integration test;
// each test file gets a database and a Redis namespace of its own, so files run in parallel.
import { createRequire } from "node:module";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    globalSetup: [createRequire(import.meta.url).resolve("@orderbot/testkit/global-setup")],
    pool: "forks",
    // A worker imports the shop once for all its files, not once per file: importing it (Prisma's
    // client, grammY, Fastify) took 2.4 s, 500 s of a run. Files still get their own database.
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Unhandled rejections and errors fail the run (vitest's default; kept explicit).
    dangerouslyIgnoreUnhandledErrors: false,
    include: ["test/**/*.test.ts", "**/*.test.ts"],
    exclude: ["**/node_modules/**", "**/dist/**"],
  },
});
