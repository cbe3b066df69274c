// Settings every workspace's tests share. Real PostgreSQL and Redis back every integration test;
// each test file gets a database and a Redis namespace of its own, so files run in parallel.
import { createRequire } from "node:module";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    globalSetup: [createRequire(import.meta.url).resolve("@orderbot/testkit/global-setup")],
    pool: "forks",
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Unhandled rejections and errors fail the run (vitest's default; kept explicit).
    dangerouslyIgnoreUnhandledErrors: false,
    include: ["test/**/*.test.ts", "**/*.test.ts"],
    exclude: ["**/node_modules/**", "**/dist/**"],
  },
});
