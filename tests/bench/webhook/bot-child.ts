// What a bot under test answers the webhook bench with, over its child's IPC channel: the same
// for the project's bot and the baseline, so both are measured alike. `mark` is the CPU and the
// counts so far (the bench takes deltas); `profile:start` and `profile:stop` bracket the phase
// under the CPU profiler, whose samples are sorted into BOT_CATEGORIES.
import { startCpuProfile, type CpuProfiler } from "@orderbot/testkit";
import { redisCommandCounts, sqlCounts } from "../profile/counters.ts";
import { BOT_CATEGORIES } from "./bot-categories.ts";
import { cpuMs, serveParent } from "./child.ts";

/** Serves the bench's requests until it says "close", then runs `close`. */
export function serveBot(close: () => Promise<void>): void {
  let profiler: CpuProfiler | undefined;
  serveParent(
    {
      mark: () => ({ cpuMs: cpuMs(), sql: sqlCounts(), redis: redisCommandCounts() }),
      "profile:start": async () => {
        profiler = await startCpuProfile(BOT_CATEGORIES);
      },
      "profile:stop": async () => {
        const result = await profiler!.stop();
        profiler = undefined;
        return result;
      },
    },
    close,
  );
}
