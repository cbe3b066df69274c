// Layer: outage policies. While Redis cannot serve a lock (no connection, a timeout, OOM, the
// breaker open ...), withLock applies the kind's `outage` policy instead of throwing:
//   refuse           { status: "unavailable" }: the caller says "try again in a moment"
//   skip             { status: "skipped" }: periodic work that its next run does anyway
//   proceed-db-only  the task runs lockless ({ lease: null }) on the database's guarantees
//                    (conditional updates, unique keys): { status: "ok", degraded: true }
// A closed manager is no outage: withLock still throws then.
//
// What it adds: each kind says in one word of its config what its work does while Redis is down.
// What it costs: this file, and a `proceed-db-only` kind's work must be correct without the lock.
// When to leave it out: the callers handle LockUnavailableError themselves (withLock throws it).
import { LockInputError, type Layer, type OutageLayer } from "../core/types.ts";

const POLICIES = ["refuse", "proceed-db-only", "skip"];

/** The outage layer: every kind must name its policy.
 * @example createLockManager({ ...options, kinds: { job: { ttlMs: 30_000, waitMs: 0, outage: "skip" } }, layers: { outage: outagePolicies() } }) */
export function outagePolicies(): Layer<OutageLayer> {
  return (host) => {
    for (const [kind, { outage }] of host.config.kinds) {
      const at = `kinds.${kind}.outage`;
      if (!POLICIES.includes(outage!))
        throw new LockInputError(`${at} must be one of ${POLICIES}`, at);
    }
    return async (kind, error, lockless, requestId) => {
      const policy = host.config.kinds.get(kind)!.outage!;
      const line = { kind, requestId, policy, reason: error.reason };
      host.logger.warn(line, "lock unavailable: applying the kind's outage policy");
      if (policy === "refuse") return { status: "unavailable" };
      host.metrics(kind).degraded(policy);
      if (policy === "skip") return { status: "skipped" };
      return { status: "ok", value: await lockless(), fence: null, degraded: true, lost: null };
    };
  };
}
