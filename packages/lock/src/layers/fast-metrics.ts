// A Prometheus histogram and counter for the lock's hot path. prom-client's metrics validate and
// hash the label set on every observe() or inc(), even through a child from labels(); the lock
// records five samples per lock+unlock, so that bookkeeping was a visible share of its CPU. Here
// labels() resolves the series once, and observe() is a bucket search and three additions, inc()
// one addition. Each metric is registered on the application's prom-client Registry like any other
// (name, help, type, get, reset) and exports what prom-client's own would (test/fast-metrics.test.ts
// compares the text), except that a series exists, at zero, from its first labels() call on, and
// reset() zeroes it rather than dropping it: a lock kind's counters are there before anything
// happened, which is what an alert on increase() or rate() needs.
//
// Worth keeping, measured twice. 2026-12-02, `npm run bench -- lock-breakdown` (a shared 2-core
// machine): with prom-client's Counter and Histogram in their place, the lock's own JavaScript per
// lock+unlock on a stub Redis went from about 3 µs to 5.5 µs, and at 32 clients the module fell
// from 0.62x to 0.53x of the raw SET NX PX loop. After the core/layers rewrite (same day, same
// loaded machine, 32 managers on a stub Redis, best of 3 x 60,000 lock+unlock): 7.5 µs with
// prom-client's metrics, 5.8 µs with these, 5.7 µs with no metrics layer at all. The 1.7 µs are
// about 5-6 % of a lock+unlock's node time at 32 clients on a real Redis (docs/benchmarks.md:
// 2 µs of added JavaScript cost 0.93x against 1.04x). Re-run on an idle machine before deciding again.
// What it costs: this file and its test. Leave it out (use prom-client's own in metrics.ts) when
// the lock is not on a path taking thousands of locks a second.
import type { Registry } from "prom-client";

/**
 * One exported sample, as prom-client's own metrics return them from get().
 *
 * @example
 * const sample: MetricSample = { labels: { kind: "order", le: 0.001 }, value: 3, metricName: "x_seconds_bucket" };
 */
export interface MetricSample {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

interface MetricOptions {
  name: string;
  help: string;
  labelNames: readonly string[];
  registers: Registry[];
}

/** What both metrics share: fixed label names, one series object per label set, registration. */
abstract class LabelledMetric<S extends { readonly labels: Record<string, string> }> {
  abstract readonly type: "histogram" | "counter";
  readonly aggregator = "sum" as const;
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];
  protected readonly series = new Map<string, S>();

  constructor(options: MetricOptions) {
    this.name = options.name;
    this.help = options.help;
    this.labelNames = options.labelNames;
  }

  /** Registers on the registries (called by subclasses once they are complete). */
  protected register(registers: Registry[]): void {
    for (const registry of registers) registry.registerMetric(this as never);
  }

  /** The series for these label values (in labelNames order); keep it and record on it. */
  labels(...values: string[]): S {
    if (values.length !== this.labelNames.length)
      throw new Error(
        `${this.name} takes ${this.labelNames.length} label values, got ${values.length}`,
      );
    const key = values.join("\u0000");
    let series = this.series.get(key);
    if (!series) {
      const labels: Record<string, string> = {};
      this.labelNames.forEach((name, i) => (labels[name] = values[i]!));
      this.series.set(key, (series = this.createSeries(labels)));
    }
    return series;
  }

  protected abstract createSeries(labels: Record<string, string>): S;
  protected abstract samples(): MetricSample[];
  abstract reset(): void;

  /** What prom-client's get() returns for a metric of this type. */
  async get(): Promise<{
    name: string;
    help: string;
    type: "histogram" | "counter";
    values: MetricSample[];
    aggregator: "sum";
  }> {
    return {
      name: this.name,
      help: this.help,
      type: this.type,
      values: this.samples(),
      aggregator: this.aggregator,
    };
  }
}

/**
 * One labelled histogram series: per-bucket (not cumulative) counts, sum and count.
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
export class LockHistogram extends LabelledMetric<HistogramSeries> {
  readonly type = "histogram" as const;
  readonly buckets: readonly number[];

  constructor(options: MetricOptions & { buckets: readonly number[] }) {
    super(options);
    this.buckets = [...options.buckets].sort((a, b) => a - b);
    this.register(options.registers);
  }

  protected createSeries(labels: Record<string, string>): HistogramSeries {
    return new HistogramSeries(labels, this.buckets);
  }

  /** Cumulative _bucket (le), then _sum and _count per series, as prom-client's Histogram. */
  protected samples(): MetricSample[] {
    const values: MetricSample[] = [];
    const bucket = `${this.name}_bucket`;
    for (const series of this.series.values()) {
      let cumulative = 0;
      this.buckets.forEach((le, i) => {
        cumulative += series.counts[i]!;
        values.push({ labels: { ...series.labels, le }, value: cumulative, metricName: bucket });
      });
      values.push({
        labels: { ...series.labels, le: "+Inf" },
        value: series.count,
        metricName: bucket,
      });
      values.push({
        labels: { ...series.labels },
        value: series.sum,
        metricName: `${this.name}_sum`,
      });
      values.push({
        labels: { ...series.labels },
        value: series.count,
        metricName: `${this.name}_count`,
      });
    }
    return values;
  }

  reset(): void {
    for (const series of this.series.values()) {
      series.counts.fill(0);
      series.sum = 0;
      series.count = 0;
    }
  }
}

/**
 * One labelled counter series.
 *
 * @example
 * const acquired = counter.labels("order", "acquired");
 * acquired.inc();
 */
export class CounterSeries {
  value = 0;
  constructor(readonly labels: Record<string, string>) {}

  inc(amount = 1): void {
    if (!(amount >= 0) || !Number.isFinite(amount))
      throw new TypeError(`A counter only goes up by a finite amount, got ${amount}`);
    this.value += amount;
  }
}

/**
 * A counter with fixed label names whose children are cheap to increment.
 *
 * @example
 * const acquisitions = new LockCounter({ name: "x_total", help: "…", labelNames: ["kind", "outcome"], registers: [registry] });
 * const acquired = acquisitions.labels("order", "acquired"); // resolve once
 * acquired.inc();                                            // then one addition
 */
export class LockCounter extends LabelledMetric<CounterSeries> {
  readonly type = "counter" as const;

  constructor(options: MetricOptions) {
    super(options);
    this.register(options.registers);
  }

  protected createSeries(labels: Record<string, string>): CounterSeries {
    return new CounterSeries(labels);
  }

  protected samples(): MetricSample[] {
    return [...this.series.values()].map((series) => ({
      labels: { ...series.labels },
      value: series.value,
    }));
  }

  reset(): void {
    for (const series of this.series.values()) series.value = 0;
  }
}
