// Counters and histograms that resolve a label set once (labels()) and then record with a few
// additions; registered on a prom-client Registry, they export what prom-client's own would.
// Why the lock uses them: metrics.ts.
import type { Registry } from "prom-client";

/** One exported sample, as prom-client's own metrics return them from get(). */
export type MetricSample = {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
};
type Options = { name: string; help: string; labelNames: readonly string[]; registers: Registry[] };

/**
 * One labelled series. A counter's value is its sum; a histogram keeps per-bucket (not
 * cumulative) counts beside its sum and count.
 */
export class Series {
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Record<string, string>,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length);
  }

  get value(): number {
    return this.sum;
  }

  inc(amount = 1): void {
    if (!(amount >= 0) || !Number.isFinite(amount))
      throw new TypeError(`A counter only goes up by a finite amount, got ${amount}`);
    this.sum += amount;
  }

  observe(value: number): void {
    if (!Number.isFinite(value)) throw new TypeError(`Value is not a valid number: ${value}`);
    const bounds = this.bounds;
    let i = 0;
    while (i < bounds.length && value > bounds[i]!) i++;
    if (i < bounds.length) this.counts[i]! += 1;
    this.sum += value;
    this.count += 1;
  }

  reset(): void {
    this.counts.fill(0);
    this.sum = this.count = 0;
  }
}

/** Fixed label names, one Series per label set (kept from its first labels() call), registered. */
export abstract class HandMadeMetric {
  abstract readonly type: "histogram" | "counter";
  readonly aggregator = "sum" as const;
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];
  protected readonly series = new Map<string, Series>();

  constructor(
    options: Options,
    readonly buckets: readonly number[],
  ) {
    ({ name: this.name, help: this.help, labelNames: this.labelNames } = options);
    for (const registry of options.registers) registry.registerMetric(this as never);
  }

  /** The series for these label values (in labelNames order); keep it and record on it. */
  labels(...values: string[]): Series {
    const count = this.labelNames.length;
    if (values.length !== count)
      throw new Error(`${this.name} takes ${count} label values, got ${values.length}`);
    const key = values.join("\u0000");
    let series = this.series.get(key);
    if (!series) {
      const labels = Object.fromEntries(this.labelNames.map((name, i) => [name, values[i]!]));
      this.series.set(key, (series = new Series(labels, this.buckets)));
    }
    return series;
  }

  reset(): void {
    for (const series of this.series.values()) series.reset();
  }

  protected abstract samples(): MetricSample[];

  /** What prom-client's get() returns for a metric of this type. */
  async get() {
    const { name, help, type, aggregator } = this;
    return { name, help, type, values: this.samples(), aggregator };
  }
}

/**
 * @example
 * const acquisitions = new LockCounter({ name: "x_total", help: "…", labelNames: ["kind", "outcome"], registers: [registry] });
 * const acquired = acquisitions.labels("order", "acquired"); // resolve once
 * acquired.inc();                                            // then one addition
 */
export class LockCounter extends HandMadeMetric {
  readonly type = "counter" as const;

  constructor(options: Options) {
    super(options, []);
  }

  protected samples(): MetricSample[] {
    return [...this.series.values()].map((s) => ({ labels: { ...s.labels }, value: s.sum }));
  }
}

/**
 * @example
 * const latency = new LockHistogram({ name: "x_seconds", help: "…", labelNames: ["kind"], buckets: [0.001, 0.01], registers: [registry] });
 * const order = latency.labels("order"); // resolve once
 * order.observe(0.0004);                 // then only a bucket search
 */
export class LockHistogram extends HandMadeMetric {
  readonly type = "histogram" as const;

  constructor(options: Options & { buckets: readonly number[] }) {
    super(
      options,
      [...options.buckets].sort((a, b) => a - b),
    );
  }

  /** Cumulative _bucket (le), then _sum and _count per series, as prom-client's Histogram. */
  protected samples(): MetricSample[] {
    const values: MetricSample[] = [];
    const sample = (labels: MetricSample["labels"], value: number, suffix: string) =>
      values.push({ labels, value, metricName: this.name + suffix });
    for (const { labels, counts, sum, count } of this.series.values()) {
      let cumulative = 0;
      this.buckets.forEach((le, i) =>
        sample({ ...labels, le }, (cumulative += counts[i]!), "_bucket"),
      );
      sample({ ...labels, le: "+Inf" }, count, "_bucket");
      sample({ ...labels }, sum, "_sum");
      sample({ ...labels }, count, "_count");
    }
    return values;
  }
}
