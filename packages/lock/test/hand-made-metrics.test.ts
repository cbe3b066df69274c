// LockHistogram and LockCounter must export exactly what prom-client's Histogram and Counter would
// for the same samples, so dashboards and alert rules cannot tell them apart.
import { describe, expect, it } from "vitest";
import { Counter, Histogram, Registry } from "prom-client";
import { LockCounter, LockHistogram } from "../src/layers/hand-made-metrics.ts";

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
    const options = {
      name: "x_seconds",
      help: "Test.",
      labelNames: ["kind", "command"],
      buckets: BUCKETS,
    };
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
      values
        .map((v) => JSON.stringify([v.metricName, Object.entries(v.labels).sort(), v.value]))
        .sort();
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
    expect(
      (await histogram.get()).values.every((sample: { value: number }) => sample.value === 0),
    ).toBe(true);
  });
});

describe("LockCounter", () => {
  it("exports the same samples as prom-client's Counter, in text and from get()", async () => {
    const theirs = new Registry();
    const ours = new Registry();
    const options = { name: "x_total", help: "Test.", labelNames: ["kind", "outcome"] };
    const reference = new Counter({ ...options, registers: [theirs] });
    const counter = new LockCounter({ ...options, registers: [ours] });
    const steps: [string, string, number][] = [
      ["order", "acquired", 1],
      ["order", "busy", 1],
      ["job", "acquired", 2.5],
      ["order", "acquired", 1],
    ];
    for (const [kind, outcome, amount] of steps) {
      reference.labels(kind, outcome).inc(amount);
      counter.labels(kind, outcome).inc(amount);
    }
    expect(ours.getSingleMetric("x_total")).toBe(counter);
    expect(samples(await ours.metrics())).toEqual(samples(await theirs.metrics()));
    expect(samples(await ours.metrics())).toContain('x_total{kind="order",outcome="acquired"} 2');
    const plain = (values: { labels: object; value: number }[]) =>
      values.map((v) => JSON.stringify([Object.entries(v.labels).sort(), v.value])).sort();
    expect(plain((await counter.get()).values)).toEqual(plain((await reference.get()).values));
    expect((await counter.get()).type).toBe("counter");
  });

  it("refuses to go down or by a number that is not finite, and reset zeroes it", async () => {
    const counter = new LockCounter({
      name: "y_total",
      help: "Test.",
      labelNames: ["kind"],
      registers: [],
    });
    const order = counter.labels("order");
    expect(() => order.inc(-1)).toThrow(/only goes up/);
    expect(() => order.inc(Number.NaN)).toThrow(/only goes up/);
    expect(() => order.inc(Number.POSITIVE_INFINITY)).toThrow(/only goes up/);
    order.inc();
    expect(order.value).toBe(1);
    counter.reset();
    expect((await counter.get()).values.map((sample) => sample.value)).toEqual([0]);
    expect(() => counter.labels("order", "extra")).toThrow(/takes 1 label values/);
  });
});
