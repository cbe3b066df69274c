// `npm test` runs every workspace's suite (and tests/) as projects of one vitest run.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: ["packages/*/vitest.config.ts", "apps/*/vitest.config.ts", "tests"],
    reporters: ["default"],
  },
});
