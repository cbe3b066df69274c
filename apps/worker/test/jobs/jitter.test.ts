// The runner's jitter spreads the ticks: workers started together (a deploy) do not all try the
// same job lock at the same instant, tick after tick. Twenty jobs started at one moment stand for
// twenty workers; without the jitter their first ticks land within a few milliseconds.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMetricsRegistry, silentLogger } from "@orderbot/platform";
import { createTestRedis, type TestRedis } from "@orderbot/testkit";
import type { Job } from "../../src/jobs/job.ts";
import { createJobRunner } from "../../src/jobs/runner.ts";
import { createWorkerMetrics } from "../../src/metrics.ts";
import { buildLocks } from "../support/locks.ts";

const INTERVAL_MS = 300;
const JITTER = 0.2;
const JOBS = 20;

let t: TestRedis;
let close: () => Promise<void>;
let locks: Awaited<ReturnType<typeof buildLocks>>["locks"];

beforeAll(async () => {
  t = await createTestRedis();
  ({ locks, close } = await buildLocks(t.url, t.namespace));
});
afterAll(async () => {
  await close?.();
  await t?.cleanup();
});

const spread = (values: number[]) => Math.max(...values) - Math.min(...values);

describe("job runner jitter", () => {
  it("spreads the first ticks of jobs started together, and each job's later ticks", async () => {
    const ticks = new Map<string, number[]>();
    const jobs: Job[] = Array.from({ length: JOBS }, (_, i) => ({
      name: `tick-${i}`,
      intervalMs: INTERVAL_MS,
      jitter: JITTER,
      exclusive: false,
      async run() {
        ticks.set(`tick-${i}`, [...(ticks.get(`tick-${i}`) ?? []), performance.now()]);
      },
    }));
    const runner = createJobRunner({
      locks,
      jobs,
      logger: silentLogger,
      metrics: createWorkerMetrics(createMetricsRegistry()),
    });
    const started = performance.now();
    runner.start();
    await new Promise((resolve) => setTimeout(resolve, INTERVAL_MS * (1 + JITTER) * 3 + 200));
    await runner.stop();

    const first = [...ticks.values()].map((times) => times[0]! - started);
    expect(first).toHaveLength(JOBS);
    // Within the jitter's window (plus timer slack), and spread across it, not bunched.
    for (const delay of first) {
      expect(delay).toBeGreaterThanOrEqual(INTERVAL_MS * (1 - JITTER) - 5);
      expect(delay).toBeLessThanOrEqual(INTERVAL_MS * (1 + JITTER) + 100);
    }
    expect(spread(first)).toBeGreaterThan(INTERVAL_MS * JITTER); // uniform over 2*jitter: ~0.36*interval expected

    // The gaps between one job's ticks vary too: the jitter is drawn again for every tick.
    const gaps = [...ticks.values()].flatMap((times) =>
      times.slice(1).map((at, i) => at - times[i]!),
    );
    expect(gaps.length).toBeGreaterThanOrEqual(JOBS);
    expect(spread(gaps)).toBeGreaterThan(INTERVAL_MS * JITTER);
  });
});
