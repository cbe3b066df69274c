// The update pipeline alone, as createBotApp wires it, over a test's database, locks and Redis:
// for tests that feed it updates directly.
import type { Update } from "grammy/types";
import { createProcessedUpdates, type Database } from "@orderbot/db";
import type { LockManager } from "@orderbot/lock";
import { createMetricsRegistry, silentLogger, type Redis } from "@orderbot/platform";
import { createBotMetrics } from "../../src/metrics.ts";
import { createUpdatePipeline } from "../../src/updates/pipeline.ts";
import { createRateLimiter } from "../../src/updates/rate-limit.ts";

export interface TestPipelineOptions {
  botId: bigint;
  db: Database;
  locks: LockManager;
  redis: Redis;
  /** Where the rate limiter's keys go (the test's namespace). */
  namespace: string;
  /** Updates per user per minute before the rate limit refuses. */
  limit: number;
  handle: (update: Update) => Promise<void>;
}

export function testPipeline(options: TestPipelineOptions) {
  return createUpdatePipeline({
    botId: options.botId,
    processed: createProcessedUpdates(options.db),
    locks: options.locks,
    rateLimiter: createRateLimiter({
      redis: options.redis,
      prefix: `${options.namespace}:rate`,
      mask: String,
      limit: options.limit,
      windowMs: 60_000,
    }),
    refuse: async () => {},
    handle: options.handle,
    metrics: createBotMetrics(createMetricsRegistry()),
    logger: silentLogger,
  });
}
