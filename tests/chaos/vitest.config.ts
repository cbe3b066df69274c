// The quick chaos suite runs after every other project (groupOrder 1) and alone (one worker).
import { defineProject, mergeConfig } from "vitest/config";
import shared from "../../vitest.shared.ts";

export default mergeConfig(
  shared,
  defineProject({
    test: { name: "chaos", maxWorkers: 1, sequence: { groupOrder: 1 } },
  }),
);
