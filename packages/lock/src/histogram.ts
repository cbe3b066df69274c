// A Prometheus histogram for the lock's hot path. prom-client's Histogram validates and hashes the
// label set on every observe(), even through a child from labels(); the lock observes four times
// per lock+unlock, so that bookkeeping was a visible share of its CPU. Here labels() resolves the
// series once and observe() is a bucket search and three additions. The object is registered on
// the application's prom-client Registry like any metric (name, help, type, get, reset) and
// exports exactly what prom-client's Histogram would (test/histogram.test.ts compares the text).
import type { Registry } from "prom-client";

/**
 * One exported sample, as prom-client's own metrics return them from get().
 *
 * @example
 * const sample: HistogramSample = { labels: { kind: "order", le: 0.001 }, value: 3, metricName: "x_seconds_bucket" };
 */
export interface HistogramSample {
  labels: Record<string, string | number>;
  value: number;
  metricName: string;
}

/**
 * One labelled series: per-bucket (not cumulative) counts, sum and count.
 *
 * @example
 * const series = histogram.labels("order");
 * series.observe(0.002);
 */
export class HistogramSeries {
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Record<string, string>,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length);
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
}

/**
 * A histogram with fixed label names whose children are cheap to observe.
 *
 * @example
 * const latency = new LockHistogram({ name: "x_seconds", help: "…", labelNames: ["kind"], buckets: [0.001, 0.01], registers: [registry] });
 * const order = latency.labels("order"); // resolve once
 * order.observe(0.0004);                 // then only a bucket search
 */
export class LockHistogram {
  readonly type = "histogram" as const;
  readonly aggregator = "sum" as const;
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];
  readonly buckets: readonly number[];
  #series = new Map<string, HistogramSeries>();

  constructor(options: {
    name: string;
    help: string;
    labelNames: readonly string[];
    buckets: readonly number[];
    registers: Registry[];
  }) {
    this.name = options.name;
    this.help = options.help;
    this.labelNames = options.labelNames;
    this.buckets = [...options.buckets].sort((a, b) => a - b);
    for (const registry of options.registers) registry.registerMetric(this as never);
  }

  /** The series for these label values (in labelNames order); keep it and observe on it. */
  labels(...values: string[]): HistogramSeries {
    if (values.length !== this.labelNames.length)
      throw new Error(`${this.name} takes ${this.labelNames.length} label values, got ${values.length}`);
    const key = values.join("\u0000");
    let series = this.#series.get(key);
    if (!series) {
      const labels: Record<string, string> = {};
      this.labelNames.forEach((name, i) => (labels[name] = values[i]!));
      this.#series.set(key, (series = new HistogramSeries(labels, this.buckets)));
    }
    return series;
  }

  /** What prom-client's Histogram.get() returns: cumulative _bucket (le), then _sum and _count per series. */
  async get(): Promise<{
    name: string;
    help: string;
    type: "histogram";
    values: HistogramSample[];
    aggregator: "sum";
  }> {
    const values: HistogramSample[] = [];
    const bucket = `${this.name}_bucket`;
    for (const series of this.#series.values()) {
      let cumulative = 0;
      this.buckets.forEach((le, i) => {
        cumulative += series.counts[i]!;
        values.push({ labels: { ...series.labels, le }, value: cumulative, metricName: bucket });
      });
      values.push({ labels: { ...series.labels, le: "+Inf" }, value: series.count, metricName: bucket });
      values.push({ labels: { ...series.labels }, value: series.sum, metricName: `${this.name}_sum` });
      values.push({ labels: { ...series.labels }, value: series.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    for (const series of this.#series.values()) {
      series.counts.fill(0);
      series.sum = 0;
      series.count = 0;
    }
  }
}
