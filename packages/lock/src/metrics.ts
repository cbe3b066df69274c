// Layer: metrics. The lock metrics (names in LOCK_METRICS), on the prom-client registry the
// application injects. Children are bound per kind once (and per outcome or command on first
// use), and the counters and histograms are LockCounter and LockHistogram, which do not hash a
// label set on every sample (src/fast-metrics.ts, where the measured gain is written down).
//
// What it adds: acquisitions by outcome, wait and hold times (choose TTLs from the hold p99),
// renewals, lost leases, not-owner releases, command latency, the breaker, degraded runs.
// What it costs: this file and fast-metrics.ts, a prom-client dependency, five samples per
// lock+unlock.
// When to leave it out: nothing scrapes the process. Replace createLockMetrics with one that
// returns no-op functions for every KindMetrics method.
import { Gauge, Registry, type Metric } from "prom-client";
import { LockCounter, LockHistogram } from "./fast-metrics.ts";
import { LOCK_METRICS } from "./types.ts";

type AcquireOutcome = "acquired" | "busy" | "unavailable" | "aborted";
type RenewalOutcome = "ok" | "lost" | "error";
export type LockCommand = "acquire" | "release" | "extend" | "wait";

/** The metrics of one lock kind. */
export interface KindMetrics {
  acquired(outcome: AcquireOutcome): void;
  waited(seconds: number): void;
  held(seconds: number): void;
  renewed(outcome: RenewalOutcome): void;
  leaseLost(): void;
  releaseNotOwner(): void;
  command(command: LockCommand, seconds: number): void;
  breakerOpen(open: boolean): void;
  degraded(policy: string): void;
}

/**
 * What the lock needs of a histogram or a counter: ours, or a prom-client metric of the same name
 * already on the registry.
 */
interface Observable {
  labels(...values: string[]): { observe(value: number): void };
}
interface Countable {
  labels(...values: string[]): { inc(amount?: number): void };
}

function reuse<T extends Metric | Observable | Countable>(
  registry: Registry,
  name: string,
  create: () => T,
): T {
  return (registry.getSingleMetric(name) as T | undefined) ?? create();
}

/** Creates (or, on a registry that has them already, reuses) the lock metrics. */
export function createLockMetrics(registry: Registry): (kind: string) => KindMetrics {
  const registers = [registry];
  const counter = (name: string, help: string, labelNames: string[]) =>
    reuse<Countable>(registry, name, () => new LockCounter({ name, help, labelNames, registers }));
  const histogram = (name: string, help: string, labelNames: string[], buckets: number[]) =>
    reuse<Observable>(
      registry,
      name,
      () => new LockHistogram({ name, help, labelNames, buckets, registers }),
    );

  const acquire = counter(LOCK_METRICS.acquireTotal, "Lock acquisitions by outcome.", [
    "kind",
    "outcome",
  ]);
  const wait = histogram(
    LOCK_METRICS.waitSeconds,
    "Time from asking for a lock to getting it (or giving up).",
    ["kind"],
    [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  );
  const hold = histogram(
    LOCK_METRICS.holdSeconds,
    "Time a lease was held; choose TTLs from its upper percentiles.",
    ["kind"],
    [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
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
    [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
  );
  const breaker = reuse(
    registry,
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

  return (kind) => {
    const acquireBy = memo((outcome: string) => acquire.labels(kind, outcome));
    const renewalsBy = memo((outcome: string) => renewals.labels(kind, outcome));
    const latencyBy = memo((command: string) => latency.labels(kind, command));
    const waitOf = wait.labels(kind);
    const holdOf = hold.labels(kind);
    const lostOf = lost.labels(kind);
    const notOwnerOf = notOwner.labels(kind);
    breaker.labels(kind).set(0);
    return {
      acquired: (outcome) => acquireBy(outcome).inc(),
      waited: (seconds) => waitOf.observe(seconds),
      held: (seconds) => holdOf.observe(seconds),
      renewed: (outcome) => renewalsBy(outcome).inc(),
      leaseLost: () => lostOf.inc(),
      releaseNotOwner: () => notOwnerOf.inc(),
      command: (command, seconds) => latencyBy(command).observe(seconds),
      breakerOpen: (open) => breaker.labels(kind).set(open ? 1 : 0),
      degraded: (policy) => degraded.labels(kind, policy).inc(),
    };
  };
}

function memo<T>(make: (label: string) => T): (label: string) => T {
  const cache = new Map<string, T>();
  return (label) => {
    let value = cache.get(label);
    if (value === undefined) cache.set(label, (value = make(label)));
    return value;
  };
}
