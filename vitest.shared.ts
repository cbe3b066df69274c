// Settings every workspace's tests share. Real PostgreSQL and Redis back every integration test;
// each test file gets a database and a Redis namespace of its own, so files run in parallel.
import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    globalSetup: [path.resolve(import.meta.dirname, "tests/support/global-setup.ts")],
    pool: "forks",
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Unhandled rejections and errors fail the run (vitest's default; kept explicit).
    dangerouslyIgnoreUnhandledErrors: false,
    include: ["test/**/*.test.ts", "**/*.test.ts"],
    exclude: ["**/node_modules/**", "**/dist/**"],
  },
});
