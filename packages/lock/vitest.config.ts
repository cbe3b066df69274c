// Self-contained: the tests need only a redis-server on PATH (test/redis.ts starts it), so the
// package runs them the same inside the monorepo and copied alone.
import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "lock",
    pool: "forks",
    // The tests mostly wait on Redis and timers: four files at a time took 18.5 s on two cores,
    // one at a time (vitest's default there) 48.5 s, measured.
    maxWorkers: 4,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    include: ["test/**/*.test.ts"],
  },
});
