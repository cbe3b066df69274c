import { describe, expect, it } from "vitest";
import { parseMetrics, summarizeLocks } from "@orderbot/testkit";

const bucket = (kind: string, le: string, n: number) =>
  `orderbot_lock_wait_seconds_bucket{kind="${kind}",le="${le}"} ${n}`;

/** Two processes' expositions, as scrapeAll concatenates them. */
const exposition = [
  "# HELP orderbot_lock_acquire_total Lock acquisitions by outcome.",
  "# TYPE orderbot_lock_acquire_total counter",
  'orderbot_lock_acquire_total{kind="order",outcome="acquired"} 90',
  'orderbot_lock_acquire_total{kind="order",outcome="busy"} 10',
  'orderbot_lock_acquire_total{kind="update",outcome="acquired"} 100',
  bucket("order", "0.001", 50),
  bucket("order", "0.01", 90),
  bucket("order", "0.1", 99),
  bucket("order", "1", 100),
  bucket("order", "+Inf", 100),
  bucket("update", "0.001", 100),
  bucket("update", "0.01", 100),
  bucket("update", "0.1", 100),
  bucket("update", "1", 100),
  bucket("update", "+Inf", 100),
  'orderbot_lock_lease_lost_total{kind="order"} 2',
  'orderbot_lock_lease_lost_total{kind="update"} 1',
  "not a metric line",
].join("\n");

describe("lock metrics summary", () => {
  it("parses the exposition and sums acquisitions, waits and lost leases over kinds and processes", () => {
    const samples = parseMetrics(exposition);
    expect(samples.find((s) => s.name === "orderbot_lock_acquire_total")).toEqual({
      name: "orderbot_lock_acquire_total",
      labels: { kind: "order", outcome: "acquired" },
      value: 90,
    });
    const summary = summarizeLocks(samples);
    expect(summary).toMatchObject({
      attempts: 200,
      outcomes: { acquired: 190, busy: 10 },
      leasesLost: 3,
      waits: 10,
    });
    expect(summary.successRate).toBeCloseTo(0.95);
    // 200 observations: 190 within 10 ms, 199 within 100 ms: the 99th percentile is in the 100 ms bucket.
    expect(summary.p99WaitMs).toBe(100);
    expect(summary.byKind.order).toEqual({ acquired: 90, attempts: 100 });
  });

  it("reports no waits and full success when nothing was locked", () => {
    expect(summarizeLocks([])).toMatchObject({
      attempts: 0,
      successRate: 1,
      p99WaitMs: 0,
      waits: 0,
      leasesLost: 0,
    });
  });
});
