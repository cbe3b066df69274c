// A keepLeadership leader (the outbox relay) steps down before the `job` kind's hold cap would
// end its lease under it: the lease is released, the next tick elects again, and nothing is
// counted as a lost lease.
import { describe, expect, it } from "vitest";
import { createMetricsRegistry, silentLogger } from "@orderbot/platform";
import type { Job } from "../../src/jobs/job.ts";
import { createJobRunner } from "../../src/jobs/runner.ts";
import { createWorkerMetrics } from "../../src/metrics.ts";
import { useWorkerLocks } from "../support/locks.ts";
import { metricValue } from "../support/metrics.ts";

const redisLocks = useWorkerLocks();

describe("keepLeadership step-down", () => {
  it("hands leadership over every leadershipMs instead of holding the lock for ever", async () => {
    const terms = new Map<number, number>(); // fence -> runs in that term
    const job: Job = {
      name: "leader",
      intervalMs: 20,
      keepLeadership: true,
      async run({ fence }) {
        terms.set(fence!, (terms.get(fence!) ?? 0) + 1);
      },
    };
    const registry = createMetricsRegistry();
    const runner = createJobRunner({
      locks: redisLocks.locks,
      jobs: [job],
      logger: silentLogger,
      metrics: createWorkerMetrics(registry),
      leadershipMs: 200,
    });
    runner.start();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await runner.stop();

    expect(terms.size).toBeGreaterThanOrEqual(3); // a new term (a larger fence) every ~200 ms
    expect(Math.max(...terms.values())).toBeLessThanOrEqual(15); // ~200 ms of 20 ms runs each
    expect(await metricValue(registry, "orderbot_job_lease_lost_total", { job: "leader" })).toBe(0);
  });
});
