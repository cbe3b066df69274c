// `npm test` runs every workspace's suite (and tests/) as projects of one vitest run, in two groups:
// first everything but chaos, several files at a time; then the chaos suite alone, because its fault
// windows are timing-sensitive and must not share the machine with other tests.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: ["packages/*/vitest.config.ts", "apps/*/vitest.config.ts", "tests", "tests/chaos"],
    reporters: ["default"],
    // The two cores spend most of a test waiting on PostgreSQL, Redis and child processes: four
    // files at a time kept both busy (measured: 563 s at four, about 630 s at two, isolated).
    maxWorkers: 4,
  },
});
