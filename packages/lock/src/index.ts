// @orderbot/lock: the core (core/) and its optional layers (layers/). A manager with the core
// alone holds, renews and releases locks and waits by backoff; each layer is one line of
// `layers` in createLockManager's options, and leaving it out is leaving its file behind.
export { createLockManager } from "./core/manager.ts";
export { MAX_WAIT_MS } from "./core/requests.ts";
export * from "./core/types.ts";
export { LuaScript } from "./core/scripts.ts";
export { fairWaiting, type LockSubscriberClient } from "./layers/fair-waiting.ts";
export {
  strictReplication,
  MAX_REPLICATION_TIMEOUT_MS,
  type ReplicationConnection,
  type ReplicationOptions,
} from "./layers/strict-replication.ts";
export { circuitBreaker, type BreakerOptions } from "./layers/circuit-breaker.ts";
export { outagePolicies } from "./layers/outage-policies.ts";
export { lockMetrics, LOCK_METRICS } from "./layers/metrics.ts";
