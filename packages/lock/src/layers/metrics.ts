// Layer: metrics. The lock's Prometheus metrics (names in LOCK_METRICS), registered on the
// application's prom-client registry: `layers: { metrics: lockMetrics(registry) }`.
//
// What it adds: acquisitions by outcome, wait and hold times (choose a TTL from the hold p99),
// renewals, lost leases, not-owner releases, command latency, the breaker, degraded runs. A kind's
// lost-lease, not-owner, wait, hold and breaker series exist, at zero, from the start: what an
// alert on increase() needs to fire on the first event.
// What it costs: this file, five samples per lock+unlock.
// When to leave it out: nothing scrapes the process (the core then records nothing).
//
// Why its counters and histograms are hand-made (LockCounter, LockHistogram), not prom-client's:
// prom-client validates and hashes the label set on every inc() or observe(), even through a
// child from labels(). Here labels() resolves the series once, and observe() is a bucket search
// and three additions. Each is registered on the prom-client Registry like any other and exports
// exactly what prom-client's own would (test/hand-made-metrics.test.ts compares the text).
// Measured 2026-12-02, `npm run bench -- lock`, 32 clients on distinct keys, two runs each, as a
// ratio of the best peer in the same run: 0.63x and 0.70x with these, 0.56x and 0.66x with
// prom-client's Counter and Histogram in their place, about 8 % of the lock's rate. Swap them
// (`new Counter(`/`new Histogram(` in registerMetrics) when the lock is not on a path taking thousands a second.
import { Gauge, type Registry } from "prom-client";
import type { KindMetrics, Layer } from "../core/types.ts";
import {
  LockCounter,
  LockHistogram,
  type HandMadeMetric,
  type Series,
} from "./hand-made-metrics.ts";

/** Metric names, every one labelled by `kind`; dashboards and alert rules use them.
 * @example `sum by (kind) (rate(${LOCK_METRICS.acquireTotal}{outcome="busy"}[5m]))` */
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

/** The metrics layer on `registry` (reusing metrics of the same names already on it).
 * @example createLockManager({ ...options, layers: { metrics: lockMetrics(new Registry()) } }) */
export function lockMetrics(registry: Registry): Layer<{ forKind(kind: string): KindMetrics }> {
  return () => {
    const metrics = registerMetrics(registry);
    return { forKind: (kind) => kindMetrics(metrics, kind) };
  };
}

type LockMetricSet = ReturnType<typeof registerMetrics>;

/** Every metric of LOCK_METRICS on `registry`, each created unless one of its name is there. */
function registerMetrics(registry: Registry) {
  const registers = [registry];
  const reuse = <T>(name: string, create: () => T): T =>
    (registry.getSingleMetric(name) as T | undefined) ?? create();
  const counter = (name: string, help: string, ...labelNames: string[]) =>
    reuse(name, () => new LockCounter({ name, help, labelNames, registers }));
  const histogram = (name: string, help: string, buckets: number[], ...labelNames: string[]) =>
    reuse(name, () => new LockHistogram({ name, help, labelNames, buckets, registers }));
  const M = LOCK_METRICS;
  const breakerHelp = "1 while the lock's Redis circuit breaker is open.";
  return {
    acquire: counter(M.acquireTotal, "Lock acquisitions by outcome.", "kind", "outcome"),
    wait: histogram(
      M.waitSeconds,
      "Time from asking for a lock to getting it (or giving up); each crashed waiter ahead in line adds up to min(TTL, command timeout).",
      WAIT_BUCKETS,
      "kind",
    ),
    hold: histogram(
      M.holdSeconds,
      "Time a lease was held; choose TTLs from its upper percentiles.",
      HOLD_BUCKETS,
      "kind",
    ),
    renewals: counter(M.renewalsTotal, "Watchdog renewals by outcome.", "kind", "outcome"),
    lost: counter(M.leaseLostTotal, "Leases lost while their work was still running.", "kind"),
    notOwner: counter(M.releaseNotOwnerTotal, "Releases of a lock no longer ours.", "kind"),
    latency: histogram(
      M.redisLatencySeconds,
      "Latency of the lock's Redis commands.",
      LATENCY_BUCKETS,
      "kind",
      "command",
    ),
    breaker: reuse(
      M.breakerOpen,
      () => new Gauge({ name: M.breakerOpen, help: breakerHelp, labelNames: ["kind"], registers }),
    ),
    degraded: counter(
      M.degradedTotal,
      "Work run lockless or skipped because Redis was unavailable.",
      "kind",
      "policy",
    ),
  };
}

/** One kind's recorders, its series resolved once (and its breaker gauge at 0 from the start). */
function kindMetrics(metrics: LockMetricSet, kind: string): KindMetrics {
  const { acquire, wait, hold, renewals, lost, notOwner, latency, breaker, degraded } = metrics;
  const [waitOf, holdOf, lostOf, notOwnerOf] = [wait, hold, lost, notOwner].map((metric) =>
    metric.labels(kind),
  );
  const [acquireBy, renewalsBy, latencyBy] = [acquire, renewals, latency].map((m) => by(m, kind));
  breaker.set({ kind }, 0);
  return {
    acquired: (outcome, waited) => {
      acquireBy!(outcome).inc();
      if (waited !== undefined) waitOf!.observe(waited);
    },
    held: (seconds) => holdOf!.observe(seconds),
    renewed: (outcome) => renewalsBy!(outcome).inc(),
    leaseLost: () => lostOf!.inc(),
    releaseNotOwner: () => notOwnerOf!.inc(),
    command: (command, seconds) => latencyBy!(command).observe(seconds),
    breakerOpen: (open) => breaker.set({ kind }, open ? 1 : 0),
    degraded: (policy) => degraded.labels(kind, policy).inc(),
  };
}

/** A kind's series by its second label value, resolved once each (labels() builds a key). */
function by(metric: HandMadeMetric, kind: string): (label: string) => Series {
  const cache = new Map<string, Series>();
  return (label) => cache.get(label) ?? cache.set(label, metric.labels(kind, label)).get(label)!;
}
