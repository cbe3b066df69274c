// `npm test` runs every workspace's suite (and tests/) as projects of one vitest run.
import os from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: ["packages/*/vitest.config.ts", "apps/*/vitest.config.ts", "tests"],
    reporters: ["default"],
    // vitest's default is one worker less than the cores: one worker on a 2-core machine. The
    // files mostly wait on PostgreSQL, Redis and the processes they start (each has a database
    // and a Redis namespace of its own), so two at a time there took the suite from 883 s to 485 s.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
  },
});
