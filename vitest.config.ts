// `npm test` runs every workspace's suite (and tests/) in one vitest run, in two groups: first
// everything but chaos, several files at a time; then the chaos suite on its own (its two lanes side
// by side, tests/chaos/chaos.test.ts), because its fault windows must not share the machine with
// other tests.
//
// The suites that share vitest.shared.ts run as one project, not one per workspace: a worker imports
// the shop once for the whole run instead of once per project, and the largest files start first
// (measured on 2 cores: 427 s as 12 projects, 370 s as one). A workspace's own vitest.config.ts
// still runs it alone. The lock and the fake keep their own projects: they need no services.
import { defineConfig } from "vitest/config";
import shared from "./vitest.shared.ts";

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          ...shared.test,
          name: "suites",
          include: [
            "packages/*/test/**/*.test.ts",
            "apps/*/test/**/*.test.ts",
            "tests/**/*.test.ts",
          ],
          exclude: [
            ...(shared.test?.exclude ?? []),
            "packages/lock/**",
            "packages/fake-telegram/**",
            "tests/chaos/**",
          ],
        },
      },
      "packages/lock/vitest.config.ts",
      "packages/fake-telegram/vitest.config.ts",
      "tests/chaos",
    ],
    reporters: ["default"],
    // The two cores spend most of a test waiting on PostgreSQL, Redis and child processes: four
    // files at a time kept both busy (measured: 563 s at four, about 630 s at two, isolated).
    maxWorkers: 4,
  },
});
