// LockHistogram must export exactly what prom-client's Histogram would for the same observations,
// so dashboards and alert rules cannot tell them apart.
import { describe, expect, it } from "vitest";
import { Histogram, Registry } from "prom-client";
import { LockHistogram } from "../src/histogram.ts";

const BUCKETS = [0.0005, 0.001, 0.0025, 0.01, 0.1, 1];
const VALUES = [0, 0.0001, 0.0005, 0.0007, 0.001, 0.002, 0.05, 0.1, 0.99, 1, 7.5, 42];

/** The exposition text as a set of "name{sorted labels} value" lines (label order does not matter to Prometheus). */
function samples(text: string): string[] {
  return text
    .split("\n")
    .filter((line) => line && !line.startsWith("#"))
    .map((line) => {
      const match = /^(\w+)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`unexpected line ${line}`);
      const labels = (match[2] ?? "").split(",").filter(Boolean).sort().join(",");
      return `${match[1]}{${labels}} ${Number(match[3])}`;
    })
    .sort();
}

describe("LockHistogram", () => {
  it("exports the same samples as prom-client's Histogram, in text and from get()", async () => {
    const theirs = new Registry();
    const ours = new Registry();
    const options = { name: "x_seconds", help: "Test.", labelNames: ["kind", "command"], buckets: BUCKETS };
    const reference = new Histogram({ ...options, registers: [theirs] });
    const histogram = new LockHistogram({ ...options, registers: [ours] });
    for (const [i, value] of VALUES.entries()) {
      const labels = i % 3 === 0 ? ["order", "acquire"] : ["job", "release"];
      reference.labels(...labels).observe(value);
      histogram.labels(...labels).observe(value);
    }
    expect(ours.getSingleMetric("x_seconds")).toBe(histogram);
    expect(samples(await ours.metrics())).toEqual(samples(await theirs.metrics()));
    expect(samples(await ours.metrics())).toContain(
      'x_seconds_bucket{command="release",kind="job",le="+Inf"} 8',
    );

    const byName = (values: { labels: object; value: number; metricName?: string }[]) =>
      values.map((v) => JSON.stringify([v.metricName, Object.entries(v.labels).sort(), v.value])).sort();
    expect(byName((await histogram.get()).values)).toEqual(byName((await reference.get()).values));
    expect((await histogram.get()).type).toBe("histogram");
  });

  it("rejects values that are not finite numbers and label lists of the wrong length", () => {
    const histogram = new LockHistogram({
      name: "y_seconds",
      help: "Test.",
      labelNames: ["kind"],
      buckets: BUCKETS,
      registers: [],
    });
    expect(() => histogram.labels("order").observe(Number.NaN)).toThrow(/not a valid number/);
    expect(() => histogram.labels("order", "extra")).toThrow(/takes 1 label values/);
  });

  it("reset zeroes every series", async () => {
    const histogram = new LockHistogram({
      name: "z_seconds",
      help: "Test.",
      labelNames: ["kind"],
      buckets: BUCKETS,
      registers: [],
    });
    histogram.labels("order").observe(0.003);
    histogram.reset();
    expect((await histogram.get()).values.every((sample) => sample.value === 0)).toBe(true);
  });
});
