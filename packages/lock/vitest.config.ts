// Self-contained: the tests need only a redis-server on PATH (test/redis.ts starts it), so the
// package runs them the same inside the monorepo and copied alone.
import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "lock",
    pool: "forks",
    testTimeout: 60_000,
    hookTimeout: 60_000,
    include: ["test/**/*.test.ts"],
  },
});
