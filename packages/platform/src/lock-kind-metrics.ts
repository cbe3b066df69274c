import { Gauge, type Registry } from "prom-client";
import type { LockKindConfig } from "@orderbot/lock";

/** The configured lease of each lock kind, beside the lock module's own metrics. */
export const LOCK_KIND_METRICS = {
  ttlSeconds: "orderbot_lock_ttl_seconds", // gauge, label kind: the kind's ttlMs / 1000
} as const;

/**
 * Publishes each kind's TTL, so that an alert rule can compare the measured hold time with it
 * (OrderbotLockHoldNearTtl: hold p99 over a third of the TTL) and `scripts/lock-hold-times` can
 * read both from one scrape. Registering twice on one registry (two managers in a test) reuses it.
 */
export function registerLockKindMetrics(
  registry: Registry,
  kinds: Record<string, LockKindConfig>,
): void {
  const gauge =
    (registry.getSingleMetric(LOCK_KIND_METRICS.ttlSeconds) as Gauge<"kind"> | undefined) ??
    new Gauge({
      name: LOCK_KIND_METRICS.ttlSeconds,
      help: "Configured lease (TTL) of each lock kind, in seconds.",
      labelNames: ["kind"],
      registers: [registry],
    });
  for (const [kind, config] of Object.entries(kinds)) gauge.set({ kind }, config.ttlMs / 1000);
}
