// Layer: metrics. The lock's prom-client metrics (names in LOCK_METRICS), on the registry the
// application passes: `layers: { metrics: lockMetrics(registry) }`.
//
// What it adds: acquisitions by outcome, wait and hold times (choose a TTL from the hold p99),
// renewals, lost leases, not-owner releases, command latency, the breaker, degraded runs.
// What it costs: this file and fast-metrics.ts (hand-made counters and histograms registered on
// the prom-client registry; the measured gain is in its header), five samples per lock+unlock.
// When to leave it out: nothing scrapes the process (the core then records nothing).
import { Gauge, type Registry } from "prom-client";
import { LockCounter, LockHistogram } from "./fast-metrics.ts";
import type { KindMetrics, Layer } from "../core/types.ts";

/** Metric names, every one labelled by `kind`; dashboards and alert rules use them. */
export const LOCK_METRICS = {
  acquireTotal: "orderbot_lock_acquire_total", // counter, label outcome: acquired|busy|unavailable|aborted
  waitSeconds: "orderbot_lock_wait_seconds", // histogram
  holdSeconds: "orderbot_lock_hold_seconds", // histogram
  renewalsTotal: "orderbot_lock_renewals_total", // counter, label outcome: ok|lost|error
  leaseLostTotal: "orderbot_lock_lease_lost_total", // counter: work was running when the lease was lost
  releaseNotOwnerTotal: "orderbot_lock_release_not_owner_total", // counter
  redisLatencySeconds: "orderbot_lock_redis_command_seconds", // histogram, label command
  breakerOpen: "orderbot_lock_breaker_open", // gauge 0/1
  degradedTotal: "orderbot_lock_degraded_total", // counter, label policy: ran lockless or skipped on outage
} as const;

const WAIT_BUCKETS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];
const HOLD_BUCKETS = [
  0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300,
];
const LATENCY_BUCKETS = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1,
];

/** The metrics layer on `registry` (reusing metrics of the same names already on it). */
export function lockMetrics(registry: Registry): Layer<{ forKind(kind: string): KindMetrics }> {
  return () => {
    const registers = [registry];
    const reuse = <T>(name: string, create: () => T): T =>
      (registry.getSingleMetric(name) as T | undefined) ?? create();
    const counter = (name: string, help: string, labelNames: string[]) =>
      reuse(name, () => new LockCounter({ name, help, labelNames, registers }));
    const histogram = (name: string, help: string, labelNames: string[], buckets: number[]) =>
      reuse(name, () => new LockHistogram({ name, help, labelNames, buckets, registers }));

    const acquire = counter(LOCK_METRICS.acquireTotal, "Lock acquisitions by outcome.", [
      "kind",
      "outcome",
    ]);
    const wait = histogram(
      LOCK_METRICS.waitSeconds,
      "Time from asking for a lock to getting it (or giving up).",
      ["kind"],
      WAIT_BUCKETS,
    );
    const hold = histogram(
      LOCK_METRICS.holdSeconds,
      "Time a lease was held; choose TTLs from its upper percentiles.",
      ["kind"],
      HOLD_BUCKETS,
    );
    const renewals = counter(LOCK_METRICS.renewalsTotal, "Watchdog renewals by outcome.", [
      "kind",
      "outcome",
    ]);
    const lost = counter(
      LOCK_METRICS.leaseLostTotal,
      "Leases lost while their work was still running.",
      ["kind"],
    );
    const notOwner = counter(
      LOCK_METRICS.releaseNotOwnerTotal,
      "Releases of a lock that was no longer ours.",
      ["kind"],
    );
    const latency = histogram(
      LOCK_METRICS.redisLatencySeconds,
      "Latency of the lock's Redis commands.",
      ["kind", "command"],
      LATENCY_BUCKETS,
    );
    const breaker = reuse(
      LOCK_METRICS.breakerOpen,
      () =>
        new Gauge({
          name: LOCK_METRICS.breakerOpen,
          help: "1 while the lock's Redis circuit breaker is open.",
          labelNames: ["kind"],
          registers,
        }),
    );
    const degraded = counter(
      LOCK_METRICS.degradedTotal,
      "Work run lockless or skipped because Redis was unavailable.",
      ["kind", "policy"],
    );

    return {
      forKind(kind: string): KindMetrics {
        const acquireBy = memo((outcome: string) => acquire.labels(kind, outcome));
        const renewalsBy = memo((outcome: string) => renewals.labels(kind, outcome));
        const latencyBy = memo((command: string) => latency.labels(kind, command));
        const [waitOf, holdOf, lostOf, notOwnerOf] = [wait, hold, lost, notOwner].map((metric) =>
          metric.labels(kind),
        ) as unknown as [Observe, Observe, Inc, Inc];
        breaker.set({ kind }, 0);
        return {
          acquired: (outcome) => acquireBy(outcome).inc(),
          waited: (seconds) => waitOf.observe(seconds),
          held: (seconds) => holdOf.observe(seconds),
          renewed: (outcome) => renewalsBy(outcome).inc(),
          leaseLost: () => lostOf.inc(),
          releaseNotOwner: () => notOwnerOf.inc(),
          command: (command, seconds) => latencyBy(command).observe(seconds),
          breakerOpen: (open) => breaker.set({ kind }, open ? 1 : 0),
          degraded: (policy) => degraded.labels(kind, policy).inc(),
        };
      },
    };
  };
}

type Observe = { observe(value: number): void };
type Inc = { inc(amount?: number): void };

/** One child per label value, made on first use (labels() resolves a series). */
function memo<T>(make: (label: string) => T): (label: string) => T {
  const cache = new Map<string, T>();
  return (label) => {
    let value = cache.get(label);
    if (value === undefined) cache.set(label, (value = make(label)));
    return value;
  };
}
